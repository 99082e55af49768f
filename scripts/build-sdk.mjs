// Builds a publishable SDK package (@palaver/client, @palaver/node) into its dist/: one ESM bundle
// (esbuild; dependencies and peer dependencies stay imports) and declaration files (tsc). Inside the
// workspace the packages are used from their TypeScript sources; this is what `pnpm pack` ships.
//
// The types come from @palaver/contracts, a private workspace package of zod schemas. Its types are
// `z.infer<typeof Schema>`, which a declaration file would keep as references to the contracts and
// to zod. So every contract type the package's declarations name is printed out in full into
// dist/contract-types.d.ts (the checker's own expansion, no zod left), and the declarations import it
// from there. The package may also keep local aliases over the contracts in src/contract-types.ts;
// those are expanded the same way. The result is checked: no workspace package, zod or `import("…")`.
//
// A source both SDKs ship (SHARED_SOURCES) lives in one package and the other imports it by a
// relative path: each build bundles its own copy and emits its declaration next to the others.
//
// Usage: node scripts/build-sdk.mjs [packageDir] (default: the current directory).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const packageDir = path.resolve(process.argv[2] ?? '.');
const srcDir = path.join(packageDir, 'src');
const distDir = path.join(packageDir, 'dist');
const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
const CONTRACTS = '@palaver/contracts';
const LOCAL_TYPES = 'contract-types';
const SHARED_SOURCES = [path.resolve(import.meta.dirname, '..', 'packages', 'client', 'src', 'errors.ts')];

const fail = (message) => {
  console.error(`build-sdk ${manifest.name}: ${message}`);
  process.exit(1);
};

rmSync(distDir, { recursive: true, force: true });
mkdirSync(distDir, { recursive: true });

// 1. The JavaScript: one ES module; what the package's manifest installs stays an import.
const external = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
const bundle = await build({
  entryPoints: [path.join(srcDir, 'index.ts')],
  outfile: path.join(distDir, 'index.js'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  external: [...external, ...external.map((name) => `${name}/*`)],
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
});
// Only the package's own code and the shared sources are bundled: a value imported from another
// workspace package (the contracts pull in zod) would otherwise be copied in silently. Types may
// come from anywhere.
const inputs = Object.keys(bundle.metafile.inputs).map((input) => path.resolve(input));
const sharedInputs = inputs.filter((input) => SHARED_SOURCES.includes(input) && !input.startsWith(srcDir + path.sep));
const foreignInputs = inputs.filter((input) => !input.startsWith(srcDir + path.sep) && !sharedInputs.includes(input));
if (foreignInputs.length > 0) {
  fail(
    `dist/index.js would bundle ${foreignInputs.length} files from outside src/ (import only types from the workspace): ${foreignInputs.slice(-3).join(', ')}…`,
  );
}

// 2. The declarations, one per source file (tests left out) and per shared source, all in dist/.
const sources = readdirSync(srcDir)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts'))
  .map((name) => path.join(srcDir, name))
  .concat(sharedInputs);
const sourceNames = sources.map((file) => path.basename(file));
const clash = sourceNames.find((name, index) => sourceNames.indexOf(name) !== index);
if (clash) fail(`two sources are named ${clash}: their declarations would overwrite each other in dist/`);
const rootConfig = ts.getParsedCommandLineOfConfigFile(
  path.resolve(import.meta.dirname, '..', 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  },
);
const options = {
  ...rootConfig.options,
  noEmit: false,
  declaration: true,
  emitDeclarationOnly: true,
  outDir: distDir,
  rootDir: path.resolve(packageDir, '..'),
  types: ['node'],
};
const program = ts.createProgram(sources, options);
const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file && sources.includes(path.resolve(d.file.fileName)));
if (diagnostics.length > 0) {
  fail(ts.formatDiagnosticsWithColorAndContext(diagnostics, { ...ts.sys, getCanonicalFileName: (f) => f, getNewLine: () => '\n' }));
}
const declarations = new Map();
program.emit(undefined, (fileName, text) => declarations.set(path.basename(fileName), text));

// 3. Contract types printed in full. Names come from the declarations' imports of the contracts
// and from the exports of src/contract-types.ts.
const checker = program.getTypeChecker();
const moduleExports = (fileName) => {
  const file = program.getSourceFile(fileName);
  const symbol = file && checker.getSymbolAtLocation(file);
  if (!symbol) fail(`cannot read ${fileName}`);
  return new Map(checker.getExportsOfModule(symbol).map((s) => [s.name, s]));
};
const contractsIndex = ts.resolveModuleName(CONTRACTS, path.join(srcDir, 'index.ts'), options, ts.sys).resolvedModule?.resolvedFileName;
const wanted = new Map(); // name -> export symbol
const contractsNameRe = new RegExp(`(?:import|export)\\s+(?:type\\s+)?\\{([^}]*)\\}\\s+from\\s+['"]${CONTRACTS}['"]`, 'g');
const inlineContractsRe = new RegExp(`import\\(['"]${CONTRACTS}['"]\\)\\.(\\w+)`, 'g');
const contractsExports = contractsIndex ? moduleExports(contractsIndex) : new Map();
for (const text of declarations.values()) {
  const names = [...text.matchAll(contractsNameRe)].flatMap((m) => m[1].split(',').map((n) => n.replace(/^\s*type\s+/, '').trim()));
  for (const name of [...names, ...[...text.matchAll(inlineContractsRe)].map((m) => m[1])]) {
    if (!name) continue;
    if (name.includes(' as ')) fail(`rename imports of ${CONTRACTS} are not supported (${name})`);
    const symbol = contractsExports.get(name);
    if (!symbol) fail(`${CONTRACTS} has no export ${name}`);
    wanted.set(name, symbol);
  }
}
const localTypesFile = sources.find((file) => path.basename(file) === `${LOCAL_TYPES}.ts`);
if (localTypesFile) for (const [name, symbol] of moduleExports(localTypesFile)) wanted.set(name, symbol);

const flags =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.InTypeAlias |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrayAsGenericType;
const printed = [...wanted]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, exported]) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface))) fail(`${name} is not a type`);
    const text = checker.typeToString(checker.getDeclaredTypeOfSymbol(symbol), undefined, flags);
    const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker));
    return `${doc ? `/** ${doc.replace(/\*\//g, '*\\/')} */\n` : ''}export type ${name} = ${text};\n`;
  });
declarations.set(`${LOCAL_TYPES}.d.ts`, `// The contract types of the Palaver API, printed in full from its schemas.\n${printed.join('')}`);

// 4. Relative imports point into the flat dist/ and get their `.js` (Node's ESM resolution needs
// it); the contracts come from contract-types.d.ts.
for (const [name, original] of declarations) {
  const text = original
    .replace(new RegExp(`(from\\s+|import\\()(['"])${CONTRACTS}\\2`, 'g'), `$1$2./${LOCAL_TYPES}.js$2`)
    .replace(/(from\s+|import\()(['"])\.\.?\/(?:[^'"]*\/)?([^'"/]+?)(?:\.js)?\2/g, '$1$2./$3.js$2');
  const foreign = text.match(/(?:from\s+|import\()['"](@palaver\/[^'"]*|zod(?:\/[^'"]*)?)['"]/);
  if (foreign) fail(`dist/${name} still imports ${foreign[1]}`);
  if (name === `${LOCAL_TYPES}.d.ts` && /import\(/.test(text)) fail(`dist/${name} refers to another module: ${text}`);
  writeFileSync(path.join(distDir, name), text);
}

// 5. The declarations must stand alone: type-check them with nothing but the package's own dependencies.
const check = ts.createProgram([path.join(distDir, 'index.d.ts')], {
  strict: true,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.dom.asynciterable.d.ts'],
  types: ['node'],
  skipLibCheck: false,
});
const checkDiagnostics = ts.getPreEmitDiagnostics(check).filter((d) => d.file?.fileName.startsWith(distDir));
if (checkDiagnostics.length > 0) {
  fail(ts.formatDiagnosticsWithColorAndContext(checkDiagnostics, { ...ts.sys, getCanonicalFileName: (f) => f, getNewLine: () => '\n' }));
}
console.log(`build-sdk ${manifest.name}: dist/ (index.js, ${declarations.size} declaration files)`);
