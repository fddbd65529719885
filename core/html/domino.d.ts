// Types for the DOM implementation turndown parses with. The package ships a declaration for the
// original `domino` name only, so the forked name is declared here with the standard DOM types,
// which domino implements.
declare module '@mixmark-io/domino' {
  /** Parses a whole HTML document. `force` parses even an empty string instead of returning a blank document. */
  export function createDocument(html?: string, force?: boolean): Document;
}
