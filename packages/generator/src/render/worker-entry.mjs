// Worker bootstrap in plain JavaScript: a worker does not inherit the TypeScript
// loader of its parent, so it registers tsx itself, then loads the real worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
