/**
 * `--data-dir <dir>` of `agora token` and `agora agents`: the embedded store to use
 * instead of the site's. It must be a folder that exists: a mistyped one was made into
 * a new, empty store that no writer reads (`token create` printed a token every writer
 * then refused as unknown, `token list` said "no tokens").
 */
import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { AgoraConfig } from '@agora/generator';

/**
 * The configuration with `dataDir` from the option, or the error saying why that folder is refused.
 *
 * @param config The site's configuration (its `dataDir` is named as the likely intent).
 * @param dataDir The option as typed; absent, or with PostgreSQL (no data folder), `config` itself.
 */
export async function withDataDirOption(config: AgoraConfig, dataDir: string | undefined): Promise<AgoraConfig> {
  if (dataDir === undefined || config.store.engine !== 'files') return config;
  const dir = resolve(dataDir);
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) {
    const ownDir = relative(process.cwd(), config.dataDir) || '.';
    throw new Error(`\`--data-dir ${dataDir}\` ${info ? 'is not a folder' : 'does not exist'}: name the data folder the writer uses (\`${ownDir}\` by this site's settings, the default), or create it first; nothing was changed`);
  }
  return { ...config, dataDir: dir };
}
