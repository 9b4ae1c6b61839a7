/**
 * `agora comments list|hide|unhide|delete|export|import`: the operator's commands for
 * stored comments, on the store the server uses (same configuration). Thin: parses,
 * calls `moderation.ts` and `transfer/comment-lines.ts`, prints, sets the exit code.
 */
import { link, lstat, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDir, writeAll } from '@agora/generator/files';
import { once } from 'node:events';
import { Command } from 'commander';
// printable(): control, bidi and invisible characters shown as escapes, so stored text can never drive the terminal.
import { missingSite, postSlugs, printable, type AgoraConfig, type Comment } from '@agora/generator';
import { MIN_ID_PREFIX, moderate, publish, type Publication } from '../moderation.ts';
import { withStore } from '../store/with-store.ts';
import { exportComments, readCommentLines, renderImported, toExportRecord } from '../transfer/comment-lines.ts';


function line(c: Comment): string {
  const flag = c.hidden ? `[hidden${c.hidden_reason ? `: ${c.hidden_reason}` : ''}] ` : '';
  // A signed comment's agent: the origin and key `agora agents block` takes.
  const agent = c.agent ? ` [signed: ${c.agent.origin} key ${c.agent.keyid}]` : '';
  return printable(`${c.id}  ${c.created_at}  ${flag}${c.type}${c.position ? `/${c.position}` : ''}  ${c.slug}  ${c.author} (${c.model})${agent}  ${c.body.slice(0, 60).replace(/\s+/g, ' ')}`);
}

const told = (p: Publication): string =>
  p.by === 'writer' ? 'the running writer updates the pages within about a second' : `${p.written} files rewritten`;

export function commentsCommand(loadConfig: () => AgoraConfig): Command {
  const comments = new Command('comments').description('list, moderate, export and import stored comments (changes rebuild the affected pages)');

  comments
    .command('list')
    .description('list stored comments, oldest first (hidden ones marked)')
    .option('--slug <slug>', 'only this post')
    .option('--json', 'print a JSON array of comments in the export\'s record shape (with `hidden`, `hidden_reason`)')
    .action(async (opts: { slug?: string; json?: boolean }) => {
      const config = loadConfig();
      const list = await withStore(config, async (store) => {
        if (opts.slug) return store.comments.forSlug(opts.slug);
        const all: Comment[] = [];
        for await (const batch of store.comments.scan()) all.push(...batch);
        return all.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
      });
      // No comments and no such post: most likely a mistyped slug, not an empty post (a removed
      // post's comments are still listed). Only in a site's folder: PostgreSQL may be moderated from anywhere.
      if (opts.slug && list.length === 0 && !missingSite(config) && !(await postSlugs(config)).has(opts.slug)) {
        throw new Error(`No post \`${printable(opts.slug)}\` and no stored comments on it; the slug is the post's file name without .md (\`agora comments list\` lists every comment with its post)`);
      }
      // The export's record shape, the same on either engine (not the store's own record: its
      // stored HTML, renderer key and key order were printed, and an unsigned comment had no `agent`).
      if (opts.json) return void process.stdout.write(`${JSON.stringify(list.map(toExportRecord), null, 2)}\n`);
      for (const c of list) process.stdout.write(`${line(c)}\n`);
      process.stdout.write(`${list.length} comment${list.length === 1 ? '' : 's'}\n`);
    });

  for (const action of ['hide', 'unhide', 'delete'] as const) {
    const command = comments
      .command(action)
      .description(action === 'delete' ? 'delete a comment for good' : `${action} a comment (kept in the store, ${action === 'hide' ? 'left out of' : 'back in'} every page)`)
      .argument('<id>', 'comment id (see `agora comments list`), or its first 6 or more characters when no other id begins so');
    if (action === 'hide') command.option('--reason <text>', 'why (kept with the comment; `agora comments list` shows it)');
    command
      .action(async (id: string, opts: { reason?: string }) => {
        const result = await moderate(loadConfig(), action, id, opts.reason);
        if (!result.comment) {
          process.stderr.write(`agora: no comment with id ${printable(id)}${id.length < MIN_ID_PREFIX ? ` (a start of an id needs at least ${MIN_ID_PREFIX} characters)` : ''}; see \`agora comments list\`\n`);
          process.exitCode = 1;
          return;
        }
        process.stdout.write(`${action}: ${result.comment.id} on ${printable(result.comment.slug)}; ${told(result.publication!)}\n`);
      });
  }

  comments
    .command('export')
    .description('write every comment (hidden ones marked) as JSON Lines: the backup format')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (opts: { out?: string }) => {
      if (!opts.out) {
        const write = async (chunk: string) => {
          if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
        };
        await withStore(loadConfig(), (store) => exportComments(store.comments, write));
        return;
      }
      const out = await ExportFile.create(opts.out);
      let n: number;
      try {
        n = await withStore(loadConfig(), (store) => exportComments(store.comments, (chunk) => out.write(chunk)));
        await out.commit();
      } catch (error) {
        await out.discard();
        throw error;
      }
      process.stderr.write(`exported ${n} comment${n === 1 ? '' : 's'} to ${opts.out}\n`);
    });

  comments
    .command('import')
    .description('add the comments of a JSON Lines export, each judged and rendered as POST does (idempotent by id; every refused line is listed, and nothing is imported unless --skip-refused)')
    .argument('<file>', 'a file written by `agora comments export`')
    .option('--skip-refused', 'import the lines that pass and list the refused ones (default: import nothing if any line is refused)')
    .action(async (file: string, opts: { skipRefused?: boolean }) => {
      const config = loadConfig();
      await assertReadableFile(file);
      const slugs = await postSlugs(config);
      const checked = await readCommentLines(file, (slug) => slugs.has(slug));
      const refused = [...checked.refused, ...(await renderImported(file, checked))].sort((a, b) => a.line - b.line);
      for (const r of refused) process.stderr.write(`agora: refused ${r.message}\n`);
      if (refused.length > 0 && !opts.skipRefused) {
        process.stderr.write(`agora: ${refused.length} line${refused.length === 1 ? '' : 's'} refused; nothing was imported. Fix them, or import the others with --skip-refused\n`);
        process.exitCode = 1;
        return;
      }
      const bad = new Set(refused.map((r) => r.line));
      let list: Comment[] | null = checked.comments.filter((c) => !bad.has(checked.lineOf.get(c.id)!));
      await withStore(config, async (store) => {
        const result = await store.comments.importMany(list!);
        // The parsed file is not needed for the rebuild, which reads the store.
        list = null;
        const publication = result.added > 0 ? await publish(config, store) : null;
        process.stdout.write(`imported ${result.added} comment${result.added === 1 ? '' : 's'} on ${result.slugs.size} post${result.slugs.size === 1 ? '' : 's'}; ${result.existing} already stored${refused.length > 0 ? `; ${refused.length} refused` : ''}${publication ? `; ${told(publication)}` : ''}\n`);
      });
    });

  return comments;
}

/** Why a file could not be made or written, in words. */
function writeFailure(error: NodeJS.ErrnoException, path: string): string {
  return error.code === 'EEXIST' ? 'it exists already (an export never writes over a file: choose another name, or remove that one)'
    : error.code === 'ENOENT' ? `its folder \`${dirname(path)}\` does not exist (create it first)`
    : error.code === 'EACCES' || error.code === 'EPERM' ? 'this user may not write there'
    : error.code === 'EISDIR' ? 'it is a folder (name a file in it)'
    : error.code === 'ENOSPC' || error.code === 'EDQUOT' ? 'the disk holding it is full (free some space on it, or export to another disk)'
    : error.message;
}

/**
 * The export's file: written under a temporary name beside it and given its name only
 * once every comment is in it and on disk, never over an existing file (a backup is not
 * overwritten by the next). A failure (a full disk, a store error) leaves no file of
 * that name, a killed command only its hidden temporary file: a partial backup, which
 * imports without a complaint, was left there before, and the next export refused to
 * replace it.
 */
class ExportFile {
  private constructor(
    private readonly path: string,
    private readonly tmp: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(path: string): Promise<ExportFile> {
    const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.export-tmp`);
    const refuse = (error: NodeJS.ErrnoException) => new Error(`Cannot write the export to \`${path}\`: ${writeFailure(error, path)}; nothing was written`);
    if (await lstat(path).then(() => true, () => false)) throw refuse(Object.assign(new Error('exists'), { code: 'EEXIST' }));
    const handle = await open(tmp, 'wx').catch((error: NodeJS.ErrnoException) => {
      throw refuse(error);
    });
    return new ExportFile(path, tmp, handle);
  }

  /** Lines not yet written: one write per 64 KB, not one per comment. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  async write(chunk: string): Promise<void> {
    const bytes = Buffer.from(chunk);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= 64 * 1024) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (chunks.length > 0) await writeAll(this.handle, [Buffer.concat(chunks)]).catch((error: NodeJS.ErrnoException) => this.fail(error));
  }

  /** Make the file durable and give it its name. */
  async commit(): Promise<void> {
    await this.flush();
    try {
      await this.handle.sync();
      await this.handle.close();
      // link, not rename: it fails if a file of that name appeared meanwhile.
      await link(this.tmp, this.path).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST' || (await lstat(this.path).then(() => true, () => false))) throw error;
        await rename(this.tmp, this.path); // a file system without hard links
      });
    } catch (error) {
      this.fail(error as NodeJS.ErrnoException);
    }
    // The backup is whole and has its name; the temporary name is only tidied away.
    await rm(this.tmp, { force: true }).catch(() => {});
    await syncDir(dirname(this.path)).catch(() => {});
  }

  /** Remove the temporary file (the export failed). */
  async discard(): Promise<void> {
    await this.handle.close().catch(() => {});
    await rm(this.tmp, { force: true }).catch(() => {});
  }

  private fail(error: NodeJS.ErrnoException): never {
    throw new Error(`Cannot write the export to \`${this.path}\`: ${writeFailure(error, this.path)}; nothing was written`, { cause: error });
  }
}

/** The import's file, or an error saying why it cannot be read (not a bare ENOENT). */
async function assertReadableFile(path: string): Promise<void> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) throw new Error(`Cannot import \`${path}\`: ${info.code === 'ENOENT' ? 'no such file' : info.message}; nothing was imported`);
  // A pipe (`agora comments export | agora -C other comments import /dev/stdin`) is fine.
  if (info.isDirectory()) throw new Error(`Cannot import \`${path}\`: it is a folder, not an export (a .jsonl file written by \`agora comments export\`); nothing was imported`);
}
