import { parseAst, type Plugin } from 'vite';

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const FUNCTION_TYPES = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration', 'ClassExpression']);

/** Whether evaluating `node` calls something (outside nested function bodies). */
function callsSomething(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(callsSomething);
  const n = node as Node;
  if (typeof n.type !== 'string') return false;
  if (FUNCTION_TYPES.has(n.type)) return false;
  if (n.type === 'CallExpression' || n.type === 'NewExpression' || n.type === 'TaggedTemplateExpression') return true;
  return Object.entries(n).some(([key, value]) => key !== 'type' && typeof value === 'object' && callsSomething(value));
}

/**
 * The shared contract (`packages/contract`) declares its zod schemas next to plain rules
 * (validation, capabilities, error codes) at module level. A bundler must keep any top-level call
 * it cannot prove pure, so the first load of /login would carry every schema, and zod with them,
 * although the login screens use only the plain rules. Declaring a value is free of side effects,
 * so each top-level `const x = <expression that calls something>` of the contract is wrapped in a
 * pure-annotated arrow: kept (and evaluated as before) where `x` is used, dropped where it is not.
 */
export function pureContractSchemas(): Plugin {
  return {
    name: 'passgate:pure-contract-schemas',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!/[\\/]packages[\\/]contract[\\/]src[\\/].*\.ts$/.test(id)) return null;
      const program = parseAst(code) as unknown as { body: Node[] };
      const edits: { start: number; end: number }[] = [];
      for (const statement of program.body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const declarator of declaration.declarations as Node[]) {
          const init = declarator.init as Node | null;
          if (init && callsSomething(init)) edits.push({ start: init.start, end: init.end });
        }
      }
      if (edits.length === 0) return null;
      let result = code;
      for (const { start, end } of edits.sort((a, b) => b.start - a.start)) {
        result = `${result.slice(0, start)}/* @__PURE__ */ (() => (${result.slice(start, end)}))()${result.slice(end)}`;
      }
      return { code: result, map: null };
    },
  };
}
