// The CommonJS half of the consumer project of scripts/pack-consume/run.mjs: `require()`s every
// entry point named on the command line (the packages are ESM; Node 20.19+ loads them with
// require(esm), which fails for a module graph with top-level await) and prints one line each.
const assert = require('node:assert/strict');

for (const specifier of process.argv.slice(2)) {
  const mod = require(specifier);
  const names = Object.keys(mod);
  assert.ok(names.length > 0, `require('${specifier}') returned no exports`);
  console.log(`ok require('${specifier}'): ${names.length} exports`);
}
