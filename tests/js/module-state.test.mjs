// A lab is a value: whatever one lab on a page needs (its elements, words,
// state, player, warm-up, address bar, host) is made by shell/start-lab.js and
// passed on; no module under web/app keeps it. This reads every module's
// top-level statements (TypeScript's parser) and fails on mutable module state:
//   - a top-level `let` or `var`;
//   - a top-level container made with `new` (Map, Set, WeakMap, …) unless the
//     comment above it says why it is "Shared by every lab" (a cache keyed by
//     an element or a matrix, which belongs to whoever holds the key);
//   - a top-level array or object literal under a lower-case name (constant
//     data is UPPER_CASE or frozen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const APP = fileURLToPath(new URL('../../web/app/', import.meta.url));
const modules = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
  ? modules(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));

/** The problems of one module's source text, as "line: what". */
export function moduleState(text, name = 'module.js') {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const problems = [];
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const flags = statement.declarationList.flags;
    const comments = (ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? []).map((r) => text.slice(r.pos, r.end)).join('\n');
    for (const declaration of statement.declarationList.declarations) {
      const id = declaration.name.getText(source);
      const init = declaration.initializer;
      if (!(flags & ts.NodeFlags.Const)) {
        problems.push(`${line(statement)}: top-level let/var ${id}`);
      } else if (init && ts.isNewExpression(init) && /^(Map|Set|WeakMap|WeakSet|Array)$/.test(init.expression.getText(source))
        && !/Shared by every lab/.test(comments)) {
        problems.push(`${line(statement)}: ${id} = new ${init.expression.getText(source)} with no "Shared by every lab" reason above it`);
      } else if (init && (ts.isArrayLiteralExpression(init) || ts.isObjectLiteralExpression(init)) && !/^[A-Z][A-Z0-9_]*$/.test(id)) {
        problems.push(`${line(statement)}: ${id} is a mutable literal (constant data is UPPER_CASE)`);
      }
    }
  }
  return problems;
}

test('the rule finds what it is meant to find', () => {
  assert.deepEqual(moduleState('let current = null;\nvar x;\n'), ['1: top-level let/var current', '2: top-level let/var x']);
  assert.equal(moduleState('const drawn = new WeakMap();').length, 1);
  assert.deepEqual(moduleState('// Shared by every lab: keyed by the element.\nconst LIVE = new WeakMap();'), []);
  assert.equal(moduleState('const page = { step: 0 };').length, 1);
  assert.deepEqual(moduleState('const STEPS = [1, 2];\nexport function f() { let inside = 1; return inside; }'), []);
});

test('no module in web/app keeps a lab\'s state', () => {
  const found = modules(APP).flatMap((file) => moduleState(readFileSync(file, 'utf8'), file)
    .map((problem) => `${relative(APP, file)}:${problem}`));
  assert.deepEqual(found, []);
});
