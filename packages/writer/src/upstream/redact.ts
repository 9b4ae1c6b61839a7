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
  return redactText(copy.toString(), secrets);
}

/**
 * `text` with every key value replaced by `REDACTED`, in each form a provider may echo
 * it back (a message that repeats the request): as it is, percent-encoded, form-encoded,
 * and form-decoded (`+` read as a space).
 *
 * @param text A URL, or a provider's message.
 * @param secrets Key values (shorter than 4 characters: left alone, they would mask words).
 */
export function redactText(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    // A key may be configured percent-encoded (data.go.kr hands out both forms): mask the decoded one's forms too.
    const values = new Set([secret, decodedOrSelf(secret)]);
    const forms = [...values].flatMap((v) => [v, encodeURIComponent(v), new URLSearchParams({ k: v }).toString().slice(2), v.replace(/\+/g, ' ')]);
    // Longest first, so a form that holds another is masked whole.
    for (const form of [...new Set(forms)].sort((a, b) => b.length - a.length)) text = text.split(form).join(MASK);
  }
  return text;
}

/**
 * A provider's message with every key value masked, however the provider encoded it:
 * percent-escapes in either case and HTML character references are read first, again
 * until nothing changes (a key escaped twice), since the message only becomes a short
 * detail; then `redactText` masks the key's forms. If the key's letters and digits still
 * show in a row (in any case, or `WINDOW` of them in a row: a key the provider cut short),
 * the whole message goes: a message is shortened to letters, digits and a few signs,
 * which would spell the key out.
 *
 * @param text A provider's message.
 * @param secrets Key values.
 */
export function redactMessage(text: string, secrets: readonly string[]): string {
  let read = text;
  for (let pass = 0; pass < 4; pass++) {
    const next = decodeOnce(read);
    if (next === read) break;
    read = next;
  }
  const masked = redactText(read, secrets);
  const spelled = lettersAndDigits(masked).toLowerCase();
  for (const secret of secrets) {
    const core = lettersAndDigits(decodedOrSelf(secret)).toLowerCase();
    if (core.length < 6) continue;
    const window = Math.min(core.length, WINDOW);
    for (let at = 0; at + window <= core.length; at++) if (spelled.includes(core.slice(at, at + window))) return MASK;
  }
  return masked;
}

/** Letters and digits of a key in a row that withhold a message (a key cut short still gives itself away). */
const WINDOW = 12;

/** One pass of percent-escapes and HTML character references read. */
function decodeOnce(text: string): string {
  return text
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#x([0-9a-f]{1,6});?/gi, (m, hex: string) => fromCodePoint(parseInt(hex, 16)) ?? m)
    .replace(/&#(\d{1,7});?/g, (m, dec: string) => fromCodePoint(Number(dec)) ?? m)
    .replace(/&(amp|lt|gt|quot|apos|plus|equals|sol|percnt);/gi, (m, name: string) => NAMED[name.toLowerCase()] ?? m);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", plus: '+', equals: '=', sol: '/', percnt: '%' };

function fromCodePoint(n: number): string | undefined {
  return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

function lettersAndDigits(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, '');
}

function decodedOrSelf(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
