/**
 * The one HTML escaper. Templates are tagged templates: every interpolated value is
 * escaped unless it is already `SafeHtml` (another template, or markdown the renderer
 * produced). So a page is escaped by construction; `raw()` is the only way around it
 * and is used only for renderer output.
 */
import { escape } from 'html-escaper';

/** A string known to be safe HTML. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

function toHtml(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(toHtml).join('');
  return escape(String(value));
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += toHtml(values[i] as Value) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Mark renderer output (already sanitized or from trusted content) as safe. */
export function raw(trusted: string): SafeHtml {
  return new SafeHtml(trusted);
}

/** Escape one value for text or attribute context (also valid for XML). */
export function escapeText(value: string): string {
  return escape(value);
}
