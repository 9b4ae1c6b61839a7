/** The part of fs-native-extensions Agora uses (the package ships no types). */
declare module 'fs-native-extensions' {
  interface LockOptions {
    shared?: boolean;
  }
  /** Lock `length` bytes from `offset` (0, 0: the whole file); false when another holder has them. */
  export function tryLock(fd: number, options?: LockOptions): boolean;
  export function tryLock(fd: number, offset: number, length: number, options?: LockOptions): boolean;
  export function waitForLock(fd: number, options?: LockOptions): Promise<void>;
  export function unlock(fd: number, offset?: number, length?: number): void;
}
