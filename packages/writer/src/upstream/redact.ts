/**
 * Removes provider keys from URLs before they reach an error, a log or a message:
 * known key parameters by name, and the key's value anywhere (ECOS puts it in the path).
 */

const KEY_PARAMS = /^(servicekey|oc|crtfc_key|crtfckey|apikey|key|authkey)$/i;
const MASK = 'REDACTED';

/**
 * The URL with every key value replaced by `REDACTED`.
 *
 * @param url The request URL.
 * @param secrets Key values to mask wherever they appear (optional).
 */
export function redactUrl(url: URL | string, secrets: readonly string[] = []): string {
  const copy = new URL(String(url));
  for (const name of [...copy.searchParams.keys()]) if (KEY_PARAMS.test(name)) copy.searchParams.set(name, MASK);
  let text = copy.toString();
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)])) {
      text = text.split(form).join(MASK);
    }
  }
  return text;
}
