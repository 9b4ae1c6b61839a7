/**
 * Value rules of proxy parameters the catalog describes only in words, checked before
 * the provider is called, so a value the provider would refuse costs no call of the
 * day's quota: the KMA
 * forecast operations' base date, base time and grid (spec 4.4). Keyed by catalog
 * entry and operation id; a parameter without a rule passes as given.
 */
import { AppError } from '../../errors.ts';
import { compactDate, integer, oneOf, type Rule } from './rules.ts';

const GRID = { nx: integer(1, 149), ny: integer(1, 253) };
const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));

const PROXY_RULES: Readonly<Record<string, Readonly<Record<string, Rule>>>> = {
  'weather-forecast/getUltraSrtNcst': { base_date: compactDate, base_time: oneOf(HOURS.map((h) => `${h}00`)), ...GRID },
  'weather-forecast/getUltraFcst': { base_date: compactDate, base_time: oneOf(HOURS.map((h) => `${h}30`)), ...GRID },
  'weather-forecast/getVilageFcst': { base_date: compactDate, base_time: oneOf(['0200', '0500', '0800', '1100', '1400', '1700', '2000', '2300']), ...GRID },
};

/** Check the `params` of a proxy call to `service`/`operation` (400 naming `params.<name>`); returns them normalized. */
export function checkProxyParams(service: string, operation: string, params: Record<string, string>): Record<string, string> {
  const rules = PROXY_RULES[`${service}/${operation}`];
  if (!rules) return params;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    try {
      out[name] = rules[name] ? rules[name](value, name, 'params') : value;
    } catch (error) {
      // Worded as the proxy's other parameter errors: `body/params/<name> …`.
      if (error instanceof AppError) throw new AppError('validation', `body/${error.message}`, { field: `params.${name}` });
      throw error;
    }
  }
  return out;
}
