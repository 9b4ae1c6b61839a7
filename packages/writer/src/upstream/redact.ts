/**
 * Removes provider keys from URLs before they reach an error, a log or a message:
 * known key parameters by name, and the key's value anywhere (ECOS puts it in the path).
 */

/** The providers' key parameters (`serviceKey`, law.go.kr's `OC`, DART's `crtfc_key` …). */
const KEY_NAMES = 'servicekey|oc|crtfc_key|crtfckey|authkey';
/** In this server's own request URLs `apikey` and `key` are keys too (in a provider's data, a `key=` is often not). */
const KEY_PARAMS = new RegExp(`^(${KEY_NAMES}|apikey|key)$`, 'i');
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
  return maskForms(text, keyForms(secrets));
}

/** Every form of the keys `redactText` masks, longest first (so a form that holds another is masked whole). */
function keyForms(secrets: readonly string[]): string[] {
  const forms = secrets
    .filter((secret) => secret.length >= 4)
    // A key may be configured percent-encoded (data.go.kr hands out both forms): mask the decoded one's forms too.
    .flatMap((secret) => [...new Set([secret, decodedOrSelf(secret)])])
    .flatMap((v) => [v, encodeURIComponent(v), new URLSearchParams({ k: v }).toString().slice(2), v.replace(/\+/g, ' ')]);
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

function maskForms(text: string, forms: readonly string[]): string {
  for (const form of forms) if (text.includes(form)) text = text.split(form).join(MASK);
  return text;
}

/** The shortest key masked wherever it appears in a provider's data (shorter ones: in links only). */
const MIN_KEY_IN_DATA = 12;

/** A key parameter in a link a provider puts in its data (law.go.kr's detail links carry `OC=`). */
const KEY_IN_LINK = new RegExp(`([?&](?:${KEY_NAMES})=)[^&#\\s"'<>]*`, 'gi');

/**
 * A provider's answer with every key masked in every text of it: the value of a key
 * parameter in a link (whatever its length), and the key's forms anywhere (`redactText`).
 * Law.go.kr answers each search hit with a detail link holding the caller's OC, so an
 * answer passed on as given told every agent the server's key.
 *
 * @param value The normalized answer (JSON-like: objects, arrays, scalars), masked in place
 *   (answers are built afresh for each call; walking them in place keeps a 20 MB one cheap).
 * @param secrets Key values.
 * @returns `value`, or the masked string when `value` is one.
 */
export function redactData<T>(value: T, secrets: readonly string[]): T {
  // Anywhere in the data only a key long enough never to be a word: law.go.kr's OC is a
  // user id (its own examples use `test`), and every "test" of an answer was masked.
  const forms = keyForms(secrets.filter((secret) => secret.length >= MIN_KEY_IN_DATA));
  const mask = (text: string) => maskForms(text.includes('=') ? text.replace(KEY_IN_LINK, `$1${MASK}`) : text, forms);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return mask(node);
    if (typeof node !== 'object' || node === null) return node;
    const fields = node as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const field = fields[key];
      const masked = walk(field);
      // defineProperty: an own `__proto__` field (JSON.parse makes them) is set, not the prototype.
      if (masked !== field) Object.defineProperty(fields, key, { value: masked, writable: true, enumerable: true, configurable: true });
    }
    return node;
  };
  return walk(value) as T;
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
