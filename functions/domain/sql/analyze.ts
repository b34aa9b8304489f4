/**
 * @module sql/analyze
 * The SQL firewall: reads one statement twice (the firewall's own lexer, then the parser), refuses
 * everything that could reach beyond the caller's catalog, and reports the statement's kind, the
 * tables it reads and the table it writes. Fail-closed throughout: a construct it does not know is
 * refused, never let through.
 */
import { ValidationError } from '#domain/errors';
import { MAX_SQL_LENGTH } from '#domain/input-limits';
import { ForbiddenSqlError } from './errors.ts';
import { asciiLower, calledNames, lexSql, normalizeTokens, type Token } from './lexer.ts';
import { ALLOWED_NODE_TYPES, FORBIDDEN_NODE_TYPES, STRUCTURAL_NODE_TYPES } from './node-types.ts';
import { parseSql } from './parser.ts';
import {
  ALLOWED_LEADING_KEYWORDS,
  ALLOWED_SPARK_TABLE_FORMATS,
  ALLOWED_TRINO_TABLE_PROPERTIES,
  CREATE_MODIFIERS,
  FILE_FORMAT_NAMESPACES,
  PLAIN_PROPERTY_VALUE,
  SAFE_TABLE_FUNCTIONS,
  SYSTEM_SCHEMAS,
  SYSTEM_TABLE_PREFIXES,
  TEMPORARY_MODIFIERS,
  TWO_WORD_KEYWORDS,
  deniedFunction,
  looksLikePath,
} from './policy.ts';
import {
  SQL_DIALECTS,
  type AnalyzeSqlOptions,
  type QualifiedName,
  type SqlAnalysis,
  type StatementType,
  type TableRef,
  type WriteMode,
  type WriteTarget,
} from './types.ts';

export { MAX_SQL_LENGTH };

/**
 * Most tokens a statement may hold (words, names, literals, punctuation; comments and spaces aside).
 * The parser's work grows with them, so the bound is checked on the firewall's own tokens, before
 * the parser runs: a 10,000-value `IN` list is 20,000 tokens.
 */
export const MAX_SQL_TOKENS = 50_000;

/**
 * Most operators a statement may hold (`AND`, `OR`, `NOT`, comparisons, arithmetic, `||`). Chains of
 * binary operators parse into trees as deep as they are long, and the parser's time grows faster
 * than their length: a 256 KiB `OR` chain (25,000 terms) took 5.6 s to answer through the routed
 * endpoint. A long list of alternatives is written `x IN (…)`, which is a list, not a chain.
 */
export const MAX_SQL_OPERATORS = 2_000;

const OPERATOR_WORDS: ReadonlySet<string> = new Set(['and', 'or', 'not']);
const OPERATOR_CHARACTERS: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '=', '<', '>', '!', '|', '&', '^', '~']);

/**
 * Refuses a statement above {@link MAX_SQL_TOKENS} or {@link MAX_SQL_OPERATORS}, naming the limit.
 * Adjacent operator characters (`<=`, `||`) count as one operator.
 */
function checkComplexity(tokens: readonly Token[]): void {
  if (tokens.length > MAX_SQL_TOKENS) {
    throw new ValidationError(`SQL is too complex: ${tokens.length.toLocaleString('en-US')} tokens, more than the ${MAX_SQL_TOKENS.toLocaleString('en-US')} a statement may hold`);
  }
  let operators = 0;
  let previousEnd = -1;
  for (const token of tokens) {
    if (token.kind === 'word' && OPERATOR_WORDS.has(token.value)) operators += 1;
    else if (token.kind === 'punct' && OPERATOR_CHARACTERS.has(token.text)) {
      if (token.start !== previousEnd) operators += 1;
      previousEnd = token.start + token.text.length;
    }
  }
  if (operators > MAX_SQL_OPERATORS) {
    throw new ValidationError(
      `SQL is too complex: ${operators.toLocaleString('en-US')} operators (AND, OR, comparisons, arithmetic), more than the ${MAX_SQL_OPERATORS.toLocaleString('en-US')} a statement may hold; write long lists of alternatives as x IN (…)`,
    );
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Keys that carry only comments, positions or inferred types. */
const SKIPPED_KEYS: ReadonlySet<string> = new Set([
  'span', 'trailing_comments', 'leading_comments', 'comments', 'pre_alias_comments', 'post_select_comments', 'inferred_type',
]);

const KNOWN_NODE_TYPES: ReadonlySet<string> = new Set([...STRUCTURAL_NODE_TYPES, ...FORBIDDEN_NODE_TYPES.keys(), ...ALLOWED_NODE_TYPES]);

/** Query node types: a statement made of one of them reads. */
const QUERY_NODE_TYPES: ReadonlySet<string> = new Set(['select', 'union', 'intersect', 'except', 'set_operation', 'subquery', 'values', 'paren']);

/** Fields of INSERT the firewall understands; any other field that is set is refused. */
const INSERT_FIELDS: ReadonlySet<string> = new Set(['table', 'columns', 'values', 'query', 'overwrite', 'partition', 'with', 'by_name', 'alias_explicit_as']);
const INSERT_FIELD_CONSTRUCTS: Readonly<Record<string, string>> = {
  directory: 'INSERT OVERWRITE DIRECTORY',
  on_conflict: 'INSERT ... ON CONFLICT',
  conflict_action: 'INSERT OR REPLACE',
  is_replace: 'INSERT OR REPLACE',
  ignore: 'INSERT IGNORE',
  returning: 'RETURNING',
  output: 'OUTPUT',
  function_target: 'INSERT INTO FUNCTION',
  replace_where: 'INSERT ... REPLACE WHERE',
  default_values: 'INSERT DEFAULT VALUES',
  if_exists: 'INSERT IF EXISTS',
};

/** Fields of CREATE TABLE the firewall understands; any other field that is set is refused. */
const CREATE_TABLE_FIELDS: ReadonlySet<string> = new Set([
  'name', 'if_not_exists', 'or_replace', 'as_select', 'as_select_parenthesized', 'properties', 'with_properties', 'with_cte',
]);
const CREATE_TABLE_FIELD_CONSTRUCTS: Readonly<Record<string, string>> = {
  temporary: 'CREATE TEMPORARY TABLE',
  columns: 'CREATE TABLE with a column list',
  constraints: 'CREATE TABLE with constraints',
  clone_source: 'CREATE TABLE ... CLONE',
  is_copy: 'CREATE TABLE ... COPY',
  on_commit: 'CREATE TABLE ... ON COMMIT',
  table_modifier: 'CREATE TABLE modifier',
  like: 'CREATE TABLE ... LIKE',
};

/** CTE names visible at one point of a statement (ASCII-lower-cased). */
class CteScope {
  static readonly EMPTY = new CteScope(new Set(), undefined);
  private constructor(
    private readonly names: ReadonlySet<string>,
    private readonly parent: CteScope | undefined,
  ) {}

  with(names: readonly string[]): CteScope {
    return names.length === 0 ? this : new CteScope(new Set(names), this);
  }

  has(name: string): boolean {
    return this.names.has(name) || (this.parent?.has(name) ?? false);
  }
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(value: Json | undefined): boolean {
  return value === undefined || value === null || value === false || value === '' || (Array.isArray(value) && value.length === 0);
}

/** `[type, payload]` when `value` is one AST node (`{"select": {...}}`), else `undefined`. */
function nodeOf(value: Json | undefined): [string, Json] | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const type = keys[0] as string;
  return KNOWN_NODE_TYPES.has(type) ? [type, value[type] as Json] : undefined;
}

/** A table reference payload (`TableRef`) found outside a `table` node (INSERT and CREATE targets). */
function isTableRef(value: JsonObject): boolean {
  return 'name' in value && 'schema' in value && 'catalog' in value && 'column_aliases' in value && 'hints' in value;
}

function identifierName(value: Json | undefined): string | undefined {
  return isObject(value) && typeof value.name === 'string' ? value.name : undefined;
}

/** Nodes that are a (possibly dotted) name rather than a computed value. */
const NAME_NODE_TYPES: ReadonlySet<string> = new Set(['column', 'identifier', 'dot', 'var']);

/** Upper-cased words of raw SQL text kept by the parser (`command`, `raw` nodes), for messages. */
function leadingWords(text: string, count: number): string {
  return text.trim().split(/\s+/).slice(0, count).join(' ').toUpperCase();
}

/** The construct a refused node type names. */
function forbiddenConstruct(type: string, payload: Json): string {
  if ((type === 'command' || type === 'raw') && isObject(payload)) {
    const text = typeof payload.this === 'string' ? payload.this : typeof payload.sql === 'string' ? payload.sql : '';
    const words = text.trim().split(/\s+/);
    const first = (words[0] ?? '').toLowerCase();
    if (first === '') return 'statement the parser keeps as raw text';
    return leadingWords(text, TWO_WORD_KEYWORDS.has(first) ? 2 : 1);
  }
  return FORBIDDEN_NODE_TYPES.get(type) ?? type.replaceAll('_', ' ').toUpperCase();
}

/** Lower-cased (ASCII), NFKC-normalized function name for the deny lists. */
function foldFunctionName(name: string): string {
  return asciiLower(name.normalize('NFKC'));
}

/**
 * Analyzes one SQL statement for an engine: refuses it with {@link ForbiddenSqlError} when it uses a
 * construct that can reach beyond the caller's catalog (or one the firewall cannot read), otherwise
 * returns its kind, input tables, own target and normalized text.
 *
 * @param sql - the statement as the caller sent it (one statement; a trailing `;` is fine)
 * @param options - dialect, catalog name, default namespace and the catalog look-ups
 * @throws ForbiddenSqlError for a refused construct; ValidationError for empty or oversized SQL
 * @example
 * analyzeSql('SELECT * FROM tpch.lineitem', { dialect: 'duckdb', defaultCatalog: 'lakeline', resolveTable })
 * // → { kind: 'read', statementType: 'SELECT', inputTables: [{ catalog: 'lakeline', namespace: 'tpch', table: 'lineitem' }], ... }
 */
export function analyzeSql(sql: string, options: AnalyzeSqlOptions): SqlAnalysis {
  if (!(SQL_DIALECTS as readonly string[]).includes(options.dialect)) {
    throw new ValidationError(`dialect: must be one of ${SQL_DIALECTS.join(', ')}`);
  }
  if (typeof sql !== 'string' || sql.trim() === '') throw new ValidationError('SQL is empty');
  if (sql.length > MAX_SQL_LENGTH) throw new ValidationError(`SQL is too long: ${sql.length.toLocaleString('en-US')} characters, more than the ${MAX_SQL_LENGTH.toLocaleString('en-US')} a statement may hold`);
  const tokens = checkTokens(sql, options.dialect);
  const parsed = checkParsed(sql, options);
  return {
    kind: parsed.target ? 'write-own-target' : 'read',
    statementType: parsed.statementType,
    inputTables: parsed.inputTables,
    ...(parsed.target ? { target: parsed.target } : {}),
    normalizedSql: normalizeTokens(tokens),
  };
}

/**
 * First line: the firewall's own lexer, by the engine's lexical rules. Refuses several statements,
 * refused leading keywords and calls of denied functions; returns the statement's tokens.
 * Exported for tests that check each line on its own.
 */
export function checkTokens(sql: string, dialect: AnalyzeSqlOptions['dialect']): Token[] {
  const { statements } = lexSql(sql, dialect);
  if (statements.length === 0) throw new ValidationError('SQL has no statement (only comments or semicolons)');
  if (statements.length > 1) throw new ForbiddenSqlError('multiple statements');
  const tokens = statements[0] as Token[];
  checkComplexity(tokens);
  checkLeadingKeywords(tokens);
  // Names written as calls meet the deny lists here too, whatever the parser makes of them.
  for (const name of calledNames(tokens)) {
    const folded = foldFunctionName(name);
    const denied = deniedFunction(folded.slice(folded.lastIndexOf('.') + 1));
    if (denied) throw new ForbiddenSqlError(`${denied} ${folded}`);
  }
  return tokens;
}

/**
 * Second line: the parser's AST, walked node by node. Refuses what the parser cannot read and every
 * construct outside the policy; resolves input tables and the target. Exported for tests that
 * check each line on its own.
 */
export function checkParsed(
  sql: string,
  options: AnalyzeSqlOptions,
): { statementType: StatementType; inputTables: QualifiedName[]; target?: WriteTarget } {
  const ast = parseSql(sql, options.dialect);
  if (ast.length !== 1) throw new ForbiddenSqlError(ast.length === 0 ? 'statement the parser reads as empty' : 'multiple statements');
  const walker = new StatementWalker(sql, options);
  let outcome: { statementType: StatementType; target?: WriteTarget };
  try {
    outcome = walker.statement(ast[0] as Json);
  } catch (error) {
    // The walker recurses over the AST; a statement nested deeper than the stack allows is refused.
    if (error instanceof RangeError) throw new ForbiddenSqlError('statement nested too deeply');
    throw error;
  }
  const inputTables = [...walker.inputs.values()].sort(compareNames);
  return { statementType: outcome.statementType, inputTables, ...(outcome.target ? { target: outcome.target } : {}) };
}

function compareNames(a: QualifiedName, b: QualifiedName): number {
  const ka = `${a.catalog}.${a.namespace}.${a.table}`;
  const kb = `${b.catalog}.${b.namespace}.${b.table}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Refuses a statement by its leading keywords before the parser runs, so that what the parser
 * cannot read (`LOAD httpfs`, `ADD JAR x`, `CREATE MACRO`) is still named in the message.
 */
function checkLeadingKeywords(tokens: readonly Token[]): void {
  let k = 0;
  while (tokens[k]?.text === '(') k++;
  const first = tokens[k];
  if (first === undefined || first.kind !== 'word') {
    throw new ForbiddenSqlError(`statement starting with ${first ? first.text : 'parentheses'}`);
  }
  const keyword = first.value;
  const word = (offset: number): string | undefined => {
    const t = tokens[k + offset];
    return t?.kind === 'word' ? t.value : undefined;
  };
  if (!ALLOWED_LEADING_KEYWORDS.has(keyword)) {
    const name = keyword === 'desc' ? 'describe' : keyword;
    const second = word(1);
    throw new ForbiddenSqlError(TWO_WORD_KEYWORDS.has(name) && second ? `${name} ${second}`.toUpperCase() : name.toUpperCase());
  }
  if (keyword === 'create') {
    let m = 1;
    const modifiers: string[] = [];
    while (word(m) !== undefined && CREATE_MODIFIERS.has(word(m) as string)) modifiers.push(word(m++) as string);
    const object = word(m);
    if (object !== 'table') {
      const materialized = modifiers.includes('materialized') ? 'MATERIALIZED ' : '';
      throw new ForbiddenSqlError(`CREATE ${materialized}${(object ?? tokens[k + m]?.text ?? '').toUpperCase()}`.trim());
    }
    if (modifiers.some((x) => TEMPORARY_MODIFIERS.has(x))) throw new ForbiddenSqlError('CREATE TEMPORARY TABLE');
  }
  if (keyword === 'insert' && word(1) === 'overwrite' && (word(2) === 'directory' || word(2) === 'local')) {
    throw new ForbiddenSqlError('INSERT OVERWRITE DIRECTORY');
  }
}

/** Walks one statement's AST, collecting input tables and checking every node. */
class StatementWalker {
  /** Input tables by `catalog.namespace.table`. */
  readonly inputs = new Map<string, QualifiedName>();
  private readonly defaultCatalog: string;
  private codePoints: string[] | undefined;

  constructor(
    private readonly sql: string,
    private readonly options: AnalyzeSqlOptions,
  ) {
    this.defaultCatalog = asciiLower(options.defaultCatalog);
  }

  /** The top-level statement: a query, INSERT or CREATE TABLE ... AS. */
  statement(root: Json): { statementType: StatementType; target?: WriteTarget } {
    const node = nodeOf(root);
    if (!node) throw new ForbiddenSqlError('statement of a kind the firewall does not know');
    const [type, payload] = node;
    if (QUERY_NODE_TYPES.has(type)) {
      this.walk(root, CteScope.EMPTY);
      return { statementType: 'SELECT' };
    }
    if (type === 'insert' && isObject(payload)) return this.insert(payload);
    if (type === 'create_table' && isObject(payload)) return this.createTable(payload);
    if (FORBIDDEN_NODE_TYPES.has(type)) throw new ForbiddenSqlError(forbiddenConstruct(type, payload));
    throw new ForbiddenSqlError(`${type.replaceAll('_', ' ').toUpperCase()} statement`);
  }

  /** Any JSON value: nodes are dispatched by type, everything else is walked field by field. */
  private walk(value: Json | undefined, scope: CteScope): void {
    if (Array.isArray(value)) {
      for (const item of value) this.walk(item, scope);
      return;
    }
    if (!isObject(value)) return;
    const node = nodeOf(value);
    if (node) {
      this.node(node[0], node[1], scope);
      return;
    }
    if (isTableRef(value)) {
      this.tableRef(value, scope);
      return;
    }
    this.walkFields(value, scope);
  }

  private walkFields(value: JsonObject, scope: CteScope, except?: ReadonlySet<string>): void {
    for (const key of Object.keys(value)) {
      if (SKIPPED_KEYS.has(key) || except?.has(key)) continue;
      this.walk(value[key], scope);
    }
  }

  private node(type: string, payload: Json, scope: CteScope): void {
    // Every node's payload is an object or an array; a primitive means a payload field that happens to
    // share a node type's name (a `?` placeholder is `{"index": null}`), not a node.
    if (payload === null || typeof payload !== 'object') return;
    if (FORBIDDEN_NODE_TYPES.has(type)) throw new ForbiddenSqlError(forbiddenConstruct(type, payload));
    if (!STRUCTURAL_NODE_TYPES.has(type)) {
      if (!ALLOWED_NODE_TYPES.has(type)) throw new ForbiddenSqlError(`unsupported construct ${type}`);
      this.walk(payload, scope);
      return;
    }
    if (!isObject(payload)) throw new ForbiddenSqlError(`unsupported construct ${type}`);
    switch (type) {
      case 'select':
        this.select(payload, scope);
        return;
      case 'union':
      case 'intersect':
      case 'except': {
        const inner = this.withScope(payload.with, scope);
        this.walkFields(payload, inner, new Set(['with']));
        return;
      }
      case 'set_operation': {
        const inner = this.withScope(payload.with_, scope);
        this.walkFields(payload, inner, new Set(['with_']));
        return;
      }
      case 'table':
        this.tableRef(payload, scope);
        return;
      case 'function':
      case 'aggregate_function':
        this.scalarFunction(String(payload.name ?? ''));
        this.walkFields(payload, scope, new Set(['name']));
        return;
      case 'anonymous':
      case 'anonymous_agg_func':
        this.scalarFunction(this.calleeName(payload.this));
        this.walkFields(payload, scope, new Set(['this']));
        return;
      case 'method_call':
        this.methodCall(payload);
        this.walkFields(payload, scope, new Set(['method']));
        return;
      case 'user_defined_function':
        throw new ForbiddenSqlError(`qualified function ${this.calleeName(payload.this)}`);
      case 'from':
        for (const item of Array.isArray(payload.expressions) ? payload.expressions : []) this.relation(item, scope);
        return;
      case 'join':
        this.join(payload, scope);
        return;
      case 'joined_table':
      case 'lateral':
      case 'pivot':
      case 'unpivot':
        this.relation({ [type]: payload }, scope);
        return;
      case 'lateral_view':
        this.lateralView(payload, scope);
        return;
      case 'with':
        // A WITH the walker meets outside its owner: bodies are walked, the names are not visible.
        this.withScope(payload, scope);
        return;
      case 'insert':
      case 'create_table':
        throw new ForbiddenSqlError(`nested ${type === 'insert' ? 'INSERT' : 'CREATE TABLE'}`);
      default:
        // subquery, alias, paren, values, cte: plain containers.
        this.walk(payload, scope);
    }
  }

  private select(select: JsonObject, scope: CteScope): void {
    if (!isEmpty(select.into)) throw new ForbiddenSqlError('SELECT INTO');
    const inner = this.withScope(select.with, scope);
    const from = select.from;
    if (isObject(from) && Array.isArray(from.expressions)) {
      for (const item of from.expressions) this.relation(item, inner);
    }
    if (Array.isArray(select.joins)) for (const join of select.joins) this.join(join, inner);
    if (Array.isArray(select.lateral_views)) for (const view of select.lateral_views) this.lateralView(view, inner);
    this.walkFields(select, inner, new Set(['with', 'from', 'joins', 'lateral_views', 'into']));
  }

  /** Walks the CTE bodies of a WITH and returns the scope its query sees. */
  private withScope(withClause: Json | undefined, scope: CteScope): CteScope {
    if (!isObject(withClause)) return scope;
    const recursive = withClause.recursive === true;
    const names: string[] = [];
    for (const cte of Array.isArray(withClause.ctes) ? withClause.ctes : []) {
      if (!isObject(cte)) throw new ForbiddenSqlError('unsupported construct cte');
      const name = asciiLower(identifierName(cte.alias) ?? '');
      // A CTE sees the CTEs before it, and itself only in WITH RECURSIVE; anything else it names is a table.
      const bodyScope = scope.with(recursive ? [...names, name] : names);
      this.walk(cte.this, bodyScope);
      this.walkFields(cte, bodyScope, new Set(['this', 'alias', 'columns', 'key_expressions']));
      names.push(name);
    }
    const inner = scope.with(names);
    this.walkFields(withClause, inner, new Set(['ctes']));
    return inner;
  }

  private join(join: Json, scope: CteScope): void {
    if (!isObject(join)) throw new ForbiddenSqlError('unsupported construct join');
    this.relation(join.this, scope);
    this.walkFields(join, scope, new Set(['this']));
  }

  private lateralView(view: Json, scope: CteScope): void {
    if (!isObject(view)) throw new ForbiddenSqlError('unsupported construct lateral_view');
    this.tableFunction(view.this, scope);
    this.walkFields(view, scope, new Set(['this', 'table_alias', 'column_aliases']));
  }

  /** Something in a table position (FROM, JOIN, PIVOT source): only tables, queries and row generators. */
  private relation(value: Json | undefined, scope: CteScope): void {
    const node = nodeOf(value);
    if (!node) throw new ForbiddenSqlError('unsupported table expression');
    const [type, payload] = node;
    if (!isObject(payload)) throw new ForbiddenSqlError(`unsupported construct ${type}`);
    switch (type) {
      case 'table':
        this.tableRef(payload, scope);
        return;
      case 'alias':
      case 'paren':
        this.relation(payload.this, scope);
        this.walkFields(payload, scope, new Set(['this', 'alias', 'column_aliases']));
        return;
      case 'joined_table':
        this.relation(payload.left, scope);
        if (Array.isArray(payload.joins)) for (const join of payload.joins) this.join(join, scope);
        if (Array.isArray(payload.lateral_views)) for (const view of payload.lateral_views) this.lateralView(view, scope);
        this.walkFields(payload, scope, new Set(['left', 'joins', 'lateral_views', 'alias']));
        return;
      case 'pivot':
      case 'unpivot': {
        const inner = this.withScope(payload.with, scope);
        this.relation(payload.this, inner);
        this.walkFields(payload, inner, new Set(['this', 'with']));
        return;
      }
      case 'lateral':
      case 'match_recognize':
        this.relation(payload.this, scope);
        this.walkFields(payload, scope, new Set(['this']));
        return;
      case 'subquery':
      case 'values':
      case 'unnest':
      case 'select':
      case 'union':
      case 'intersect':
      case 'except':
      case 'set_operation':
        this.node(type, payload, scope);
        return;
      default:
        if (FORBIDDEN_NODE_TYPES.has(type)) throw new ForbiddenSqlError(forbiddenConstruct(type, payload));
        this.tableFunction(value, scope);
    }
  }

  /** A function in a table position: accepted only when it generates rows from its arguments. */
  private tableFunction(value: Json | undefined, scope: CteScope): void {
    const node = nodeOf(value);
    if (!node || !isObject(node[1])) throw new ForbiddenSqlError('unsupported table expression');
    const [type, payload] = node;
    let name: string;
    if (type === 'function' || type === 'aggregate_function') name = String(payload.name ?? '');
    else if (type === 'anonymous' || type === 'anonymous_agg_func') name = this.calleeName(payload.this);
    else if (type === 'method_call') name = `${this.calleeName(payload.this)}.${identifierName(payload.method) ?? ''}`;
    else if (ALLOWED_NODE_TYPES.has(type)) name = type;
    else throw new ForbiddenSqlError(`${type.replaceAll('_', ' ')} used as a table`);
    const folded = foldFunctionName(name);
    if (folded === 'table') {
      // Trino's TABLE(catalog.schema.fn(...)): name the function inside.
      const args = Array.isArray(payload.args) ? payload.args : [];
      throw new ForbiddenSqlError(`table function ${this.innerCallName(args[0]) ?? 'TABLE(...)'}`);
    }
    if (folded.includes('.') || !SAFE_TABLE_FUNCTIONS[this.options.dialect].has(folded)) {
      throw new ForbiddenSqlError(`table function ${folded}`);
    }
    this.walk(payload, scope);
  }

  /** Name of a call inside TABLE(...), for the message. */
  private innerCallName(value: Json | undefined): string | undefined {
    const node = nodeOf(value);
    if (!node || !isObject(node[1])) return undefined;
    const [type, payload] = node;
    if (type === 'function' || type === 'aggregate_function') return String(payload.name);
    if (type === 'method_call') return `${this.calleeName(payload.this)}.${identifierName(payload.method) ?? ''}`;
    return type;
  }

  /** The written name of a callee expression (identifier, column, dotted access). */
  private calleeName(value: Json | undefined): string {
    const node = nodeOf(value);
    if (!node) return identifierName(value) ?? '?';
    const [type, payload] = node;
    if (!isObject(payload)) return String(payload);
    if (type === 'identifier') return String(payload.name);
    if (type === 'column') {
      const table = identifierName(payload.table);
      const name = identifierName(payload.name) ?? '?';
      return table ? `${table}.${name}` : name;
    }
    if (type === 'var') return String(payload.this);
    if (type === 'dot') return `${this.calleeName(payload.this)}.${identifierName(payload.field) ?? '?'}`;
    return type;
  }

  /**
   * `x.f(...)`. DuckDB (and polars SQL, read with its grammar) have method syntax: `x.f()` is
   * `f(x)`, checked by the function's name. Trino and Spark have none: when `x` is a bare name
   * (`system.bucket(…)`, `lakeline.tpch.f(…)`) it is a catalog- or schema-qualified function, which
   * can reach routines outside the built-ins (Spark's persistent functions, Trino's SQL routines).
   */
  private methodCall(payload: JsonObject): void {
    const method = identifierName(payload.method) ?? '';
    const receiver = nodeOf(payload.this)?.[0];
    const qualifiedName = (this.options.dialect === 'trino' || this.options.dialect === 'spark') && receiver !== undefined && NAME_NODE_TYPES.has(receiver);
    if (qualifiedName) {
      this.scalarFunction(method);
      throw new ForbiddenSqlError(`qualified function ${foldFunctionName(`${this.calleeName(payload.this)}.${method}`)}`);
    }
    this.scalarFunction(method);
  }

  /** A function in a scalar position: refused when on a deny list or qualified with a schema. */
  private scalarFunction(name: string): void {
    const folded = foldFunctionName(name);
    const base = folded.slice(folded.lastIndexOf('.') + 1);
    const denied = deniedFunction(base);
    if (denied) throw new ForbiddenSqlError(`${denied} ${base}`);
    if (base === 'table') throw new ForbiddenSqlError('table function TABLE(...)');
    if (folded.includes('.')) throw new ForbiddenSqlError(`qualified function ${folded}`);
  }

  /** A table reference in an input position: a CTE, or a table of the caller's catalog. */
  private tableRef(ref: JsonObject, scope: CteScope): void {
    if (!isEmpty(ref.identifier_func)) throw new ForbiddenSqlError('IDENTIFIER() table name');
    if (!isEmpty(ref.changes)) throw new ForbiddenSqlError('CHANGES');
    const written = this.writtenName(ref);
    if (written.catalog === undefined && written.namespace === undefined && scope.has(written.table)) {
      // A CTE: its body was checked where it was defined.
    } else {
      const resolved = this.resolve(written, 'input');
      this.inputs.set(`${resolved.catalog}.${resolved.namespace}.${resolved.table}`, resolved);
    }
    this.walkFields(ref, scope, new Set(['name', 'schema', 'catalog', 'alias', 'column_aliases', 'identifier_func', 'changes']));
  }

  /**
   * The parts of a table reference, ASCII-lower-cased, after the path and shape checks.
   * @throws ForbiddenSqlError for file paths, URLs and names of more than three parts
   */
  private writtenName(ref: JsonObject): TableRef {
    const parts = [ref.catalog, ref.schema, ref.name].filter(isObject);
    const display = parts.map((p) => String(p.name)).join('.');
    for (const part of parts) {
      const name = String(part.name);
      if (part.quoted === true && this.openingQuote(part) === "'") {
        throw new ForbiddenSqlError(`file path '${name}' used as a table`);
      }
      if (looksLikePath(name)) throw new ForbiddenSqlError(`file path '${name}' used as a table`);
      if (part.quoted !== true && name.includes('.')) {
        throw new ForbiddenSqlError(`table name ${display} with more than three parts`);
      }
    }
    const table = asciiLower(String(isObject(ref.name) ? ref.name.name : ''));
    const namespace = isObject(ref.schema) ? asciiLower(String(ref.schema.name)) : undefined;
    const catalog = isObject(ref.catalog) ? asciiLower(String(ref.catalog.name)) : undefined;
    if (table === '') throw new ForbiddenSqlError('table reference without a name');
    if (namespace !== undefined && catalog === undefined && FILE_FORMAT_NAMESPACES.has(namespace)) {
      throw new ForbiddenSqlError(`file query ${namespace}.\`${table}\``);
    }
    return { ...(catalog !== undefined ? { catalog } : {}), ...(namespace !== undefined ? { namespace } : {}), table };
  }

  /** The character that opens a quoted identifier in the source: `'` marks a string literal. */
  private openingQuote(identifier: JsonObject): string | undefined {
    const span = identifier.span;
    if (!isObject(span) || typeof span.start !== 'number') return undefined;
    // Spans count Unicode code points; convert once, only when a quoted name needs it.
    this.codePoints ??= Array.from(this.sql);
    return this.codePoints[span.start];
  }

  /**
   * Qualifies a written name (default catalog and namespace) and looks it up in the caller's catalog.
   * @throws ForbiddenSqlError for system tables, other catalogs and tables the caller does not have
   */
  private resolve(written: TableRef, role: 'input' | 'target'): QualifiedName {
    const display = [written.catalog, written.namespace, written.table].filter((p) => p !== undefined).join('.');
    const systemName =
      (written.catalog !== undefined && SYSTEM_SCHEMAS.has(written.catalog)) ||
      (written.namespace !== undefined && SYSTEM_SCHEMAS.has(written.namespace)) ||
      SYSTEM_TABLE_PREFIXES.some((prefix) => written.table.startsWith(prefix)) ||
      written.table.includes('$');
    if (systemName) throw new ForbiddenSqlError(`system table ${display}`);
    const label = role === 'input' ? 'table' : 'target table';
    if (written.catalog !== undefined && written.catalog !== this.defaultCatalog) {
      throw new ForbiddenSqlError(`${label} ${display} is not in your catalog`);
    }
    const namespace = written.namespace ?? this.options.defaultNamespace;
    if (namespace === undefined) throw new ForbiddenSqlError(`${label} ${written.table} without a namespace (write namespace.table)`);
    const ref: TableRef = { catalog: this.defaultCatalog, namespace, table: written.table };
    const lookup = role === 'input' ? this.options.resolveTable : this.options.resolveTarget;
    const resolved = lookup?.(ref);
    if (!resolved) throw new ForbiddenSqlError(`${label} ${ref.catalog}.${ref.namespace}.${ref.table} is not in your catalog`);
    return { catalog: resolved.catalog, namespace: resolved.namespace, table: resolved.table };
  }

  /** The target of a write, resolved through `resolveTarget`. */
  private target(ref: Json | undefined, mode: WriteMode, label: string, ifNotExists = false): WriteTarget {
    if (this.options.dialect === 'polars') throw new ForbiddenSqlError(`${label} in polars SQL (use a destination)`);
    if (!this.options.resolveTarget) throw new ForbiddenSqlError(`${label} (only reads are accepted here)`);
    const tableRef = isObject(ref) && isTableRef(ref) ? ref : undefined;
    if (!tableRef) throw new ForbiddenSqlError(`${label} without a table name`);
    if (!isEmpty(tableRef.identifier_func)) throw new ForbiddenSqlError('IDENTIFIER() table name');
    const resolved = this.resolve(this.writtenName(tableRef), 'target');
    return { ...resolved, mode, ...(ifNotExists ? { ifNotExists: true } : {}) };
  }

  private insert(insert: JsonObject): { statementType: StatementType; target: WriteTarget } {
    for (const [key, value] of Object.entries(insert)) {
      if (INSERT_FIELDS.has(key) || SKIPPED_KEYS.has(key) || isEmpty(value)) continue;
      if (key === 'conflict_action' && typeof value === 'string') throw new ForbiddenSqlError(`INSERT OR ${value.toUpperCase()}`);
      throw new ForbiddenSqlError(INSERT_FIELD_CONSTRUCTS[key] ?? `INSERT option ${key}`);
    }
    const overwrite = insert.overwrite === true;
    const label = overwrite ? 'INSERT OVERWRITE' : 'INSERT';
    const target = this.target(insert.table, overwrite ? 'overwrite' : 'append', label);
    const inner = this.withScope(insert.with, CteScope.EMPTY);
    if (isEmpty(insert.query) && isEmpty(insert.values)) throw new ForbiddenSqlError(`${label} without a query`);
    this.walk(insert.query, inner);
    this.walk(insert.values, inner);
    this.walk(insert.partition, inner);
    return { statementType: overwrite ? 'INSERT_OVERWRITE' : 'INSERT', target };
  }

  private createTable(create: JsonObject): { statementType: StatementType; target: WriteTarget } {
    if (create.temporary === true) throw new ForbiddenSqlError('CREATE TEMPORARY TABLE');
    if (isEmpty(create.as_select)) throw new ForbiddenSqlError('CREATE TABLE without AS SELECT');
    for (const [key, value] of Object.entries(create)) {
      if (CREATE_TABLE_FIELDS.has(key) || SKIPPED_KEYS.has(key) || isEmpty(value)) continue;
      throw new ForbiddenSqlError(CREATE_TABLE_FIELD_CONSTRUCTS[key] ?? `CREATE TABLE option ${key}`);
    }
    const replace = create.or_replace === true;
    const label = replace ? 'CREATE OR REPLACE TABLE AS' : 'CREATE TABLE AS';
    const target = this.target(create.name, replace ? 'replace' : 'create', label, create.if_not_exists === true);
    const inner = this.withScope(create.with_cte, CteScope.EMPTY);
    for (const property of Array.isArray(create.properties) ? create.properties : []) this.tableProperty(property, inner);
    for (const pair of Array.isArray(create.with_properties) ? create.with_properties : []) {
      const [key, value] = Array.isArray(pair) ? pair : [];
      const name = asciiLower(String(key ?? ''));
      if (!ALLOWED_TRINO_TABLE_PROPERTIES.has(name)) throw new ForbiddenSqlError(`table property ${name}`);
      if (!PLAIN_PROPERTY_VALUE.test(String(value ?? '').trim())) throw new ForbiddenSqlError(`table property ${name} with a computed value`);
    }
    this.walk(create.as_select, inner);
    return { statementType: replace ? 'CREATE_OR_REPLACE_TABLE_AS' : 'CREATE_TABLE_AS', target };
  }

  /** One Spark/Hive table property of a CTAS: `USING iceberg` and `PARTITIONED BY (...)` only. */
  private tableProperty(property: Json, scope: CteScope): void {
    const node = nodeOf(property);
    if (!node || !isObject(node[1])) throw new ForbiddenSqlError('unsupported table property');
    const [type, payload] = node;
    if (type === 'file_format_property') {
      const format = asciiLower(this.calleeName(payload.this));
      if (!ALLOWED_SPARK_TABLE_FORMATS.has(format)) throw new ForbiddenSqlError(`USING ${format}`);
      return;
    }
    if (type === 'partitioned_by_property' || type === 'partition_by_property') {
      this.walk(payload.this, scope);
      return;
    }
    throw new ForbiddenSqlError(forbiddenConstruct(type, payload));
  }
}
