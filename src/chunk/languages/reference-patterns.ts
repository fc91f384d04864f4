/**
 * Reference patterns several languages share (see `LanguageSpec.references`): each capture names something a
 * chunk uses that the code base may define. The index keeps only the names it defines, so a broad pattern costs
 * little; compound names (`OrderService`, `findById`, `open_balances`) are the ones worth following.
 */

/** PascalCase compound type names wherever they appear: `OrderService`, `List<LineItem>`, `new InvoiceId(`. */
export const COMPOUND_TYPES = /\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\b/g;

/** Calls of compound member names through `.`, `::`, `->` or `?.`: `repo.findById(`, `Order::fromRow(`, `$db->fetchAll(`. */
export const COMPOUND_MEMBER_CALLS = /(?:\.|::|->)\s*([a-z][a-z0-9]*(?:[A-Z][A-Za-z0-9]*|_[a-z0-9]+)+)\s*[(<{]/g;

/** Path segments before `::`: `Cache::new`, `crate::store::Store`, `std::fmt` — types and modules. */
export const PATH_SEGMENTS = /\b([A-Za-z_]\w{2,})::/g;

/** Types of declared variables, parameters and fields in C-family syntax: `Order order =`, `List<Line> lines;`, `(User user)`. */
export const DECLARED_TYPES = /\b([A-Z]\w{2,})(?:<[^<>()]*>)?(?:\[\])?\s+[a-z_]\w*\s*[=;,)]/g;

/** Struct, union, enum and class names C-family code mentions: `struct ring_buffer *`, `enum Color`. */
export const TAGGED_TYPES = /\b(?:struct|union|enum|class)\s+([A-Za-z_]\w{2,})/g;

/** Ruby and PHP constants reached through `::` or built with `.new`/`new`: `Rack::Request`, `Foo.new`, `new Client(`. */
export const CONSTANT_PATHS = /\b([A-Z]\w{2,})(?:::|\.new\b)/g;

/** A shell command that may be one of the script's functions: the first word of a line or after `|`, `&&`, `;`, `$(`. */
export const SHELL_COMMANDS = /(?:^|[|;&]|\$\()\s*([a-z_][\w-]{2,})(?=\s|$|\))/gm;
