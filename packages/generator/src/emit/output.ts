/** One file of the built site. */
export interface Output {
  /** Path relative to `dist/`, `/`-separated; every segment already safe (see paths.ts). */
  path: string;
  body: string;
}
