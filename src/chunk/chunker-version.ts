/**
 * Version of what the chunker makes of a file (chunk boundaries, symbols, texts). Bump it with every change that gives
 * some file other chunks (test/fixtures/chunk-records.json then changes, and its test names this constant): an index
 * last chunked by another version chunks every file again on its next full pass, embedding only texts it has no
 * vector for. An index that recorded none (built before versions were kept) counts as another version.
 */
export const CHUNKER_VERSION = '1';
