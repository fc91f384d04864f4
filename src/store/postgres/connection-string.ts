/** What a redacted secret reads as. */
export const REDACTED = '***';

/**
 * A PostgreSQL connection string safe to print: the password of the URL's user part and any `password=`
 * or `sslpassword=` parameter (URL query or libpq key/value form, quoted or not) become `***`.
 * @example redactConnectionString('postgres://ci:s3cret@db:5432/code?sslmode=require') // 'postgres://ci:***@db:5432/code?sslmode=require'
 */
export function redactConnectionString(connectionString: string): string {
  return connectionString
    // The authority's password runs to its last '@' (greedy, then backtracking), so an unencoded '@' in it goes too.
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:)[^/?#]*@/i, `$1${REDACTED}@`)
    .replace(/(\b(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|[^&\s]*)/gi, `$1${REDACTED}`);
}

/** The password inside a connection string (URL or key/value form), or undefined: to scrub it from driver messages. */
export function passwordOf(connectionString: string): string | undefined {
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:([^/?#]*)@/i.exec(connectionString);
  if (url?.[1]) return safeDecode(url[1]);
  const pair = /\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|[^&\s]*)/i.exec(connectionString);
  if (!pair?.[1]) return undefined;
  return pair[1].startsWith("'") ? pair[1].slice(1, -1).replace(/\\(.)/g, '$1') : safeDecode(pair[1]);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
