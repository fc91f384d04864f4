// The stopword package ships no types; codescout uses only its English list.
declare module 'stopword' {
  export const eng: readonly string[];
}
