import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The storefront's calls to the API (method and path), read from its source: the storefront never
 * imports the server and its tests run in jsdom, so the check that each call is an operation of the
 * served OpenAPI document runs here, on the server's side, from the client's text. A path's
 * parameters are `{}`; the query is left out.
 */
export interface ClientCall {
  method: string;
  path: string;
  /** file:line, for the failure message. */
  where: string;
}

export interface ClientCallsFound {
  calls: ClientCall[];
  /** Places that look like a call whose method or path cannot be read: the check cannot vouch for them. */
  unreadable: string[];
}

// The API's versioned paths; `api/…` alone is also how the store's action types begin.
const API_PATH = /^api\/v\d+\//;
// The build-time API origin the storefront puts before a path it fetches itself (api/config.ts).
const API_ORIGIN = 'API_HOST';
const PARAMETER = '{}';

const trimSlashes = (text: string) => text.replace(/^\/+|\/+$/g, '');

/** The calls in one module's text. */
export function clientCallsIn(fileName: string, text: string): ClientCallsFound {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const where = (node: ts.Node) => `${fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const constants = new Map<string, string>();
  const found: ClientCallsFound = { calls: [], unreadable: [] };
  const definesEndpoints = text.includes('injectEndpoints(');

  /** The text of a string or template, each interpolation a parameter (known constants inlined); null for anything else. */
  function textOf(node: ts.Node): string | null {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isIdentifier(node)) return constants.get(node.text) ?? null;
    if (!ts.isTemplateExpression(node)) return null;
    return node.templateSpans.reduce((sum, span, index) => {
      const inner = span.expression;
      const value =
        ts.isIdentifier(inner) && inner.text === API_ORIGIN && index === 0 && node.head.text === ''
          ? ''
          : ts.isIdentifier(inner) && constants.has(inner.text)
            ? constants.get(inner.text)!
            : PARAMETER;
      return sum + value + span.literal.text;
    }, node.head.text);
  }

  /** The `method` of an object literal: GET when it has none, null when it is not a plain string. */
  function methodOf(object: ts.ObjectLiteralExpression | undefined): string | null {
    const property = object?.properties.find(
      (candidate): candidate is ts.PropertyAssignment =>
        ts.isPropertyAssignment(candidate) && candidate.name.getText(source) === 'method',
    );
    if (!property) return 'GET';
    return ts.isStringLiteral(property.initializer) ? property.initializer.text.toUpperCase() : null;
  }

  function record(node: ts.Node, method: string | null, text: string) {
    if (!method) found.unreadable.push(`${where(node)}: the method is not a plain string`);
    else found.calls.push({ method, path: trimSlashes(text.split('?')[0]!), where: where(node) });
  }

  function visit(node: ts.Node): void {
    // A path's beginning kept in a constant (`const ADMIN = 'api/v1/admin'`) is no call itself.
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && constants.has(node.name.text)) return;
    const { parent } = node;
    if (
      parent &&
      ts.isPropertyAssignment(parent) &&
      parent.initializer === node &&
      parent.name.getText(source) === 'url' &&
      ts.isObjectLiteralExpression(parent.parent)
    ) {
      const value = textOf(node);
      if (value !== null && API_PATH.test(value)) record(node, methodOf(parent.parent), value);
      else if (value === null && definesEndpoints) found.unreadable.push(`${where(node)}: the url is not a plain path`);
      return;
    }
    const value = textOf(node);
    if (value !== null && API_PATH.test(value) && !ts.isIdentifier(node)) {
      // fetch(path, { method }) of its own, or a path given as it is (a query's string, a download's).
      const fetched =
        parent &&
        ts.isCallExpression(parent) &&
        parent.arguments[0] === node &&
        parent.expression.getText(source) === 'fetch';
      const options = fetched ? parent.arguments[1] : undefined;
      record(
        node,
        fetched ? methodOf(options && ts.isObjectLiteralExpression(options) ? options : undefined) : 'GET',
        value,
      );
      return;
    }
    ts.forEachChild(node, visit);
  }
  // Constants first, wherever they are declared in the module.
  ts.forEachChild(source, function collect(node) {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const value = textOf(node.initializer);
      if (value !== null && API_PATH.test(value)) constants.set(node.name.text, value);
    }
    ts.forEachChild(node, collect);
  });
  visit(source);
  return found;
}

/** Every call of the storefront's production modules (its tests and test helpers left out). */
export function clientCalls(clientDir: string): ClientCallsFound {
  const files = readdirSync(clientDir, { recursive: true, encoding: 'utf8' }).filter(
    (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.split(path.sep).includes('test'),
  );
  const all: ClientCallsFound = { calls: [], unreadable: [] };
  for (const file of files.sort()) {
    const { calls, unreadable } = clientCallsIn(
      path.join('src/client', file),
      readFileSync(path.join(clientDir, file), 'utf8'),
    );
    all.calls.push(...calls);
    all.unreadable.push(...unreadable);
  }
  return all;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const isParameter = (segment: string) => /^\{[^}]+\}$/.test(segment);

/**
 * The calls that are not an operation of the document: the same method, and a path of as many
 * segments, each the same word or, for the call's parameters, a parameter of the document's.
 */
export function undocumentedCalls(calls: ClientCall[], paths: Record<string, Record<string, unknown>>): ClientCall[] {
  const operations = Object.entries(paths).flatMap(([documented, item]) =>
    Object.keys(item)
      .filter((method) => HTTP_METHODS.includes(method))
      .map((method) => ({ method: method.toUpperCase(), segments: trimSlashes(documented).split('/') })),
  );
  return calls.filter(({ method, path: called }) => {
    const segments = called.split('/');
    return !operations.some(
      (operation) =>
        operation.method === method &&
        operation.segments.length === segments.length &&
        operation.segments.every((segment, index) =>
          segments[index]!.includes(PARAMETER)
            ? isParameter(segment)
            : isParameter(segment) || segment === segments[index],
        ),
    );
  });
}
