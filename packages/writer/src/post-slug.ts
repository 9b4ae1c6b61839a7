/**
 * The post a `{slug}` names, one rule for every route and tool.
 *
 * A post's URLs carry its slug as `toUrlSegment(slug)`: its file name (`%`, `/`, `\`,
 * controls and a leading `.` escaped, `paths.ts`), percent-encoded. So a slug `50% off`
 * is published as `/api/views/50%2525%20off`, which an HTTP route receives decoded once,
 * as the file name `50%25 off`. HTTP routes (`from: 'path'`) try that file name first,
 * then the segment as a slug itself (a client that encoded the raw slug once). MCP tools
 * (`from: 'argument'`) get a slug raw or percent-encoded as in a URL: raw first, then
 * decoded once, as a file name or as a slug.
 */
import { fromFileName } from '@agora/generator';

/** The slug `given` names among `hasPost`'s posts, or undefined. */
export function resolvePostSlug(hasPost: (slug: string) => boolean, given: string, from: 'path' | 'argument'): string | undefined {
  const candidates = from === 'path' ? [fromFileName(given), given] : [given, ...decodedOnce(given)];
  return candidates.find((slug): slug is string => slug !== null && hasPost(slug));
}

function decodedOnce(given: string): (string | null)[] {
  try {
    const decoded = decodeURIComponent(given);
    return [fromFileName(decoded), decoded];
  } catch {
    return [];
  }
}
