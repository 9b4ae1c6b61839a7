/** Writer settings beyond the site configuration, from the environment. */
export interface WriterSettings {
  corsOrigin: string;
  logLevel: string;
  /** Delay of the coalesced views flush (ms). */
  viewsFlushMs: number;
}

export function loadWriterSettings(env: NodeJS.ProcessEnv = process.env): WriterSettings {
  const flush = Number(env.AGORA_VIEWS_FLUSH_MS ?? 1000);
  return {
    corsOrigin: env.AGORA_CORS_ORIGIN ?? '*',
    logLevel: env.LOG_LEVEL ?? 'info',
    viewsFlushMs: Number.isFinite(flush) && flush >= 0 ? flush : 1000,
  };
}
