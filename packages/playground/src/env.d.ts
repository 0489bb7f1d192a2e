// Types the page's sources need beyond the repository's (Node-only) defaults: the DOM, and Vite's
// `import.meta.glob` and `?worker&inline` imports.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference types="vite/client" />
