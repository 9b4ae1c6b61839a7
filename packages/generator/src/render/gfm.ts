/**
 * The parts of GitHub-flavoured markdown posts use — tables, strikethrough and task
 * lists — taken from the same micromark and mdast extensions remark-gfm is made of.
 * Autolink literals (bare `www.` and `https://` text) and footnotes are left out: they
 * roughly double parse time and technical posts write links as `[text](url)` or code.
 * (See README, "Authoring posts".)
 */
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import type { Processor } from 'unified';

interface ParserData {
  micromarkExtensions?: unknown[];
  fromMarkdownExtensions?: unknown[];
}

/** unified plugin: register the GFM parts for parsing. */
export function remarkGfmParts(this: Processor): void {
  const data = this.data() as ParserData;
  (data.micromarkExtensions ??= []).push(gfmTable(), gfmStrikethrough({ singleTilde: false }), gfmTaskListItem());
  (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTaskListItemFromMarkdown());
}
