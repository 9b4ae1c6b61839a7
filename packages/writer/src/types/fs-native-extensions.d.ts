/** The part of fs-native-extensions Agora uses (the package ships no types). */
declare module 'fs-native-extensions' {
  interface LockOptions {
    shared?: boolean;
  }
  export function tryLock(fd: number, options?: LockOptions): boolean;
  export function waitForLock(fd: number, options?: LockOptions): Promise<void>;
  export function unlock(fd: number): void;
}
