// Write thread bootstrap in plain JavaScript: a worker does not inherit the TypeScript
// loader of its parent, so it registers tsx itself (as worker-entry.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./write-thread-worker.ts');
