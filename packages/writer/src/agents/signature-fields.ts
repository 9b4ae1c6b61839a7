/**
 * The structured fields of HTTP Message Signatures (RFC 9421, RFC 8941 dictionaries),
 * read with structured-headers: the members of `Signature-Input`, their covered
 * components and parameters, and the `Signature-Agent` value in either of its forms
 * (a string, or a dictionary member named like the signature).
 */
import { isInnerList, parseDictionary, parseItem, serializeDictionary, serializeItem, type Dictionary } from 'structured-headers';

/** One signature's input: its label, covered components (with each one's parameters, in the same order) and parameters. */
export interface SignatureInput {
  label: string;
  components: string[];
  componentParams: Map<string, unknown>[];
  params: Map<string, unknown>;
}

/** The members of a `Signature-Input` value, or null when it is not a dictionary of inner lists. */
export function parseSignatureInput(value: string): SignatureInput[] | null {
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(value);
  } catch {
    return null;
  }
  const members: SignatureInput[] = [];
  for (const [label, member] of dictionary) {
    if (!isInnerList(member)) return null;
    const [items, params] = member;
    const components: string[] = [];
    const componentParams: Map<string, unknown>[] = [];
    for (const [item, itemParams] of items) {
      if (typeof item !== 'string') return null;
      components.push(item);
      componentParams.push(new Map(itemParams));
    }
    members.push({ label, components, componentParams, params: new Map(params) });
  }
  return members;
}

/**
 * One `Signature-Input`/`Signature` pair per signature (the verifying library takes one
 * at a time), or null when the two do not name the same signatures.
 */
export function eachSignature(input: string, signature: string): { label: string; input: string; signature: string }[] | null {
  try {
    const inputs = parseDictionary(input);
    const signatures = parseDictionary(signature);
    if (inputs.size === 0 || inputs.size !== signatures.size) return null;
    const pairs: { label: string; input: string; signature: string }[] = [];
    for (const [label, member] of inputs) {
      const sig = signatures.get(label);
      if (!sig) return null;
      pairs.push({ label, input: serializeDictionary(new Map([[label, member]])), signature: serializeDictionary(new Map([[label, sig]])) });
    }
    return pairs;
  } catch {
    return null;
  }
}

/**
 * The member `key` of a dictionary `Signature-Agent` (`agent1="https://agent.example"`): its
 * URL, and its value serialized alone, which is what a signature covering
 * `"signature-agent";key="agent1"` signs (RFC 9421 2.1.2). Null when the value is no
 * dictionary or has no such string member.
 */
export function signatureAgentMember(value: string, key: string): { url: string; serialized: string } | null {
  try {
    const member = parseDictionary(value.trim()).get(key);
    if (!member || isInnerList(member) || typeof member[0] !== 'string') return null;
    return { url: member[0], serialized: serializeItem(member) };
  } catch {
    return null;
  }
}

/**
 * The URL a `Signature-Agent` value names: a structured string (`"https://agent.example"`),
 * a dictionary member whose key is the signature's label (`sig1="https://agent.example"`),
 * or, as early senders wrote it, the bare URL. Null when it names none.
 */
export function signatureAgentUrl(value: string, label: string): string | null {
  const text = value.trim();
  try {
    const [item] = parseItem(text);
    if (typeof item === 'string') return item;
  } catch {
    // not an item: a dictionary, or a bare URL
  }
  try {
    const dictionary = parseDictionary(text);
    const member = dictionary.get(label);
    if (member && !isInnerList(member) && typeof member[0] === 'string') return member[0];
  } catch {
    // not a dictionary
  }
  return /^https?:\/\/[^\s,;"]+$/i.test(text) ? text : null;
}
