// Builds the playground into dist/ as a static site that also works from file://: relative
// paths, the page's script and stylesheet inlined into index.html (a module script or a crossorigin
// stylesheet loaded from a file:// URL is refused by browsers, inline ones are not) and the worker inlined into that script (a worker
// loaded from its own file:// URL is refused too). Workspace packages are bundled from their
// TypeScript sources (the @kruise-ts/source condition), so no prior build is needed.
import { defineConfig, type Plugin } from 'vite';

/** Moves the entry chunk and the stylesheet into index.html (inline script and style elements). */
function inlineEntry(): Plugin {
  return {
    name: 'kruise-ts-inline-entry',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find((a) => a.type === 'asset' && a.fileName === 'index.html');
      if (html?.type !== 'asset') return;
      let text = String(html.source);
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const tag = new RegExp(
          `<script type="module" crossorigin src="\\./${chunk.fileName.replace(/[.]/g, '\\.')}"></script>`,
        );
        if (!tag.test(text)) continue;
        // `</script` inside the code would end the element early; `<\/script` means the same to JavaScript.
        const code = chunk.code.replace(/<\/script/gi, '<\\/script');
        text = text.replace(tag, () => `<script type="module">\n${code}</script>`);
        delete bundle[chunk.fileName];
      }
      for (const asset of Object.values(bundle)) {
        if (asset.type !== 'asset' || !asset.fileName.endsWith('.css')) continue;
        const link = new RegExp(
          `<link rel="stylesheet" crossorigin href="\\./${asset.fileName.replace(/[.]/g, '\\.')}">`,
        );
        if (!link.test(text)) continue;
        text = text.replace(link, () => `<style>\n${String(asset.source)}</style>`);
        delete bundle[asset.fileName];
      }
      html.source = text;
    },
  };
}

export default defineConfig({
  base: './',
  resolve: { conditions: ['@kruise-ts/source', 'module', 'browser', 'development|production'] },
  worker: { format: 'iife' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4000 },
  plugins: [inlineEntry()],
});
