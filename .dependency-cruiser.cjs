/**
 * The import boundaries of docs/architecture.md, checked by `npm run lint:deps`
 * (the first step of `npm test`). Each rule's comment is what the failure prints.
 *
 * Generator layers, lowest first; a module may import its own layer and lower ones:
 *   foundation  types.ts, messages.ts, paths.ts, config.ts, json-file.ts, sorted.ts,
 *               atomic-write.ts, files.ts, catalog/types.ts
 *   load        load/          (read files, split front matter)
 *   validate    validate/, comments/, catalog/   (rules and positioned messages)
 *   model       model/         (the site model, the plan, job keys)
 *   render      render/        (markdown and templates; templates read model views)
 *   emit        emit/          (outputs and the output sink)
 *   build       every other file (build, check, watch, content, index, …)
 */
const G = '^packages/generator/src/';
const FOUNDATION = `${G}(types|messages|paths|config|json-file|atomic-write|thread-calls|files|sorted)\\.ts$|${G}catalog/types\\.ts$`;
const LAYERS = [
  ['load', `${G}load/`],
  ['validate', `${G}(validate|comments|catalog)/`],
  ['model', `${G}model/`],
  ['render', `${G}render/`],
  ['emit', `${G}emit/`],
];
const ANY_LAYER = `${G}(load|validate|comments|catalog|model|render|emit)/`;

/** A layer imports only its own layer and the ones below it. */
const layerRules = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `layer-${name}`,
  severity: 'error',
  comment: `${name}/ may import only lower layers (foundation${LAYERS.slice(0, i).map(([n]) => `, ${n}`).join('')}); move the shared code down or the caller up (docs/architecture.md, "Imports")`,
  from: { path, pathNot: FOUNDATION },
  to: { path: LAYERS.slice(i + 1).map(([, p]) => p).join('|'), dependencyTypesNot: ['type-only'] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'foundation-is-a-leaf',
      severity: 'error',
      comment: 'foundation files (types, messages, paths, config, json-file, atomic-write, thread-calls, files, sorted) import no layer: everything else builds on them',
      from: { path: FOUNDATION },
      to: { path: ANY_LAYER, pathNot: FOUNDATION, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'layers-do-not-import-the-build',
      severity: 'error',
      comment: 'load/ validate/ model/ render/ emit/ must not import the orchestration files (build, check, watch, content, index): pass what they need in',
      from: { path: ANY_LAYER },
      to: { path: `${G}[^/]+\\.ts$|${G}build/`, pathNot: FOUNDATION },
    },
    {
      name: 'generator-does-not-import-writer',
      severity: 'error',
      comment: 'the generator is a library of its own: the writer imports it, never the other way round',
      from: { path: '^packages/generator/' },
      to: { path: '^packages/writer/' },
    },
    {
      name: 'no-deep-imports-into-another-package',
      severity: 'error',
      comment: "import another package by its name and exports (@agora/generator, @agora/writer/…), never by a relative path into its src/",
      from: { path: '^(packages/([^/]+)|bin)/' },
      to: { path: '^packages/[^/]+/src/', pathNot: '^packages/$2/', dependencyTypes: ['local'], dependencyTypesNot: ['aliased'] },
    },
    {
      name: 'packages-do-not-import-tests-or-benches',
      severity: 'error',
      comment: 'shipped code must not depend on test/ or bench/',
      from: { path: '^(packages|bin)/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'writer-store-is-a-leaf',
      severity: 'error',
      comment: 'writer/src/store/ is the storage layer: it must not import HTTP, routes, rebuilds or commands (they import the store)',
      from: { path: '^packages/writer/src/store/' },
      to: { path: '^packages/writer/src/(app|server|routes|http|mcp|comments|public-data|rebuild|search|transfer|commands|health)' },
    },
    {
      name: 'writer-upstream-is-a-leaf',
      severity: 'error',
      comment: 'writer/src/upstream/ (provider clients) imports only errors.ts and its own folder; the public-data routes import it',
      from: { path: '^packages/writer/src/upstream/' },
      to: { path: '^packages/writer/src/', pathNot: '^packages/writer/src/(upstream/|errors\\.ts$)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'an import cycle: split the shared part into a module both can import',
      from: { path: '^(packages|bin)/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|lib|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['agora-source', 'import', 'node', 'default'],
      extensions: ['.ts', '.mjs', '.js'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
