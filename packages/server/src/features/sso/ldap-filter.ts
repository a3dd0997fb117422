/**
 * RFC 4515 §3: in a filter's assertion value, '*', '(', ')', '\' and NUL must be written as
 * '\' + two hex digits. Non-ASCII stays UTF-8 (allowed by the RFC's valueencoding).
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Fills `{name}` placeholders of a filter template with escaped values. */
export function fillFilter(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? escapeFilterValue(values[name]!) : whole,
  );
}

/** A DN compared loosely: case and blanks around separators do not matter. */
export function normaliseDn(dn: string): string {
  return dn
    .split(',')
    .map((rdn) =>
      rdn
        .split('=')
        .map((p) => p.trim())
        .join('='),
    )
    .join(',')
    .toLowerCase();
}
