import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The object literals in `files` that start with a spread of another object and then add keys it
 * does not have (`{ ...other, key }`): V8 adds each such key on a slow path and leaves a slow
 * object, which listing the keys or putting them first avoids. Each is given as
 * `path:line key,key`. Keys the spread already brought (`{ ...state, status }`) are cheap and not
 * reported.
 */
export const keysAddedAfterSpread = (files: readonly string[]): string[] => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram(files, config.options);
  const checker = program.getTypeChecker();
  const keysOf = (expression: ts.Expression): string[] =>
    checker.getPropertiesOfType(checker.getTypeAtLocation(expression)).map((symbol) => symbol.getName());
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} is not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const [first, ...rest] = node.properties;
        const brought = first && ts.isSpreadAssignment(first) ? new Set(keysOf(first.expression)) : new Set<string>();
        if (brought.size > 0) {
          const keysIn = (property: ts.ObjectLiteralElementLike): string[] =>
            ts.isSpreadAssignment(property) ? keysOf(property.expression) : property.name ? [nameOf(property.name)] : [];
          const added = rest.flatMap(keysIn).filter((key) => !brought.has(key));
          if (added.length > 0) {
            const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
            found.push(`${file.slice(ROOT.length + 1)}:${line + 1} ${added.join(',')}`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
};

const nameOf = (name: ts.PropertyName): string => (ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : name.getText());

export const fromRoot = (path: string): string => join(ROOT, path);
