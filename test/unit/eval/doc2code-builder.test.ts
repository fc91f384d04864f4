import { describe, expect, it } from 'vitest';
import { buildCandidates, sampleCandidates } from '../../../scripts/devsets/doc2code-tasks.js';
import { goSymbols } from '../../../scripts/devsets/go-symbols.js';
import { pythonSymbols } from '../../../scripts/devsets/python-symbols.js';
import { queryOf } from '../../../scripts/devsets/query-text.js';

const PY = [
  'import typing as t',
  '',
  '@t.overload',
  'def get_current_context(silent: t.Literal[False] = False) -> int: ...',
  '@t.overload',
  'def get_current_context(silent: bool = ...) -> int | None: ...',
  'def get_current_context(silent=False):',
  '    """Returns the current click context. This can be used to access it',
  '    from anywhere, see :func:`~click.core.pass_context`.',
  '',
  '    :param silent: if set to ``True`` the return value is ``None``.',
  '    """',
  '    return None',
  '',
  'class Headers:',
  '    """An object that stores some headers, in order."""',
  '',
  '    @property',
  '    def mimetype(self):',
  '        """Like **content type**, but without parameters such as',
  '        charset. See `RFC <https://example.com>`_."""',
  '    @mimetype.setter',
  '    def mimetype(self, value): pass',
  '',
  '    def _private(self):',
  '        """Never a task."""',
  '',
  'def _helper():',
  '    """Never a task either."""',
  '',
].join('\n');

const GO = [
  'package demo',
  '',
  '// Context represents the context of the current HTTP request.',
  '// It holds request and response objects.',
  'type Context struct {',
  '\tpath string',
  '}',
  '',
  '// Param returns path parameter by name. See [Context.Path].',
  'func (c *Context) Param(name string) string {',
  '\treturn c.path',
  '}',
  '',
  '// hidden is unexported.',
  'func hidden() {}',
  '',
  'type (',
  '\t// HandlerFunc defines a function to serve HTTP requests.',
  '\tHandlerFunc func(c *Context) error',
  ')',
  '',
].join('\n');

describe('pythonSymbols', () => {
  it('lists public functions, classes and methods with decorator-to-body ranges and plain first paragraphs', () => {
    expect(pythonSymbols('pkg/a.py', PY)).toEqual([
      { path: 'pkg/a.py', symbol: 'get_current_context', name: 'get_current_context', startLine: 3, endLine: 4, paragraph: null },
      { path: 'pkg/a.py', symbol: 'get_current_context', name: 'get_current_context', startLine: 5, endLine: 6, paragraph: null },
      {
        path: 'pkg/a.py', symbol: 'get_current_context', name: 'get_current_context', startLine: 7, endLine: 13,
        paragraph: 'Returns the current click context. This can be used to access it from anywhere, see pass_context.',
      },
      { path: 'pkg/a.py', symbol: 'Headers', name: 'Headers', startLine: 15, endLine: 26, paragraph: 'An object that stores some headers, in order.' },
      {
        path: 'pkg/a.py', symbol: 'Headers.mimetype', name: 'mimetype', startLine: 18, endLine: 21,
        paragraph: 'Like content type, but without parameters such as charset. See RFC.',
      },
      { path: 'pkg/a.py', symbol: 'Headers.mimetype', name: 'mimetype', startLine: 22, endLine: 23, paragraph: null },
    ]);
  });
});

describe('goSymbols', () => {
  it('lists exported types (grouped specs too), funcs and methods of exported types, doc comment not in the range', () => {
    expect(goSymbols('ctx.go', GO)).toEqual([
      { path: 'ctx.go', symbol: 'Context', name: 'Context', startLine: 5, endLine: 7, paragraph: 'Context represents the context of the current HTTP request. It holds request and response objects.' },
      { path: 'ctx.go', symbol: 'Context.Param', name: 'Param', startLine: 10, endLine: 12, paragraph: 'Param returns path parameter by name. See Context.Path.' },
      { path: 'ctx.go', symbol: 'HandlerFunc', name: 'HandlerFunc', startLine: 19, endLine: 19, paragraph: 'HandlerFunc defines a function to serve HTTP requests.' },
    ]);
  });
});

describe('queryOf', () => {
  it('removes the name and its split, keeps a second sentence after a short first, and capitalizes', () => {
    expect(queryOf('Param returns path parameter by name. See Context.Path.', 'Param')).toBe('Returns path parameter by name. See Context.Path.');
    expect(queryOf('A Context represents the context of the current HTTP request. It holds request and response objects.', 'Context'))
      .toBe('Represents the context of the current HTTP request.');
    expect(queryOf('Returns the current click context. This can be used anywhere.', 'get_current_context')).toBe('Returns the current click context. This can be used anywhere.');
    expect(queryOf('Get current context of the app, from the stack.', 'get_current_context')).toBe('Of the app, from the stack.');
  });

  it('drops queries under four words and ones that only restate the name', () => {
    expect(queryOf('Close the file.', 'close')).toBeNull();
    expect(queryOf('Returns the header value.', 'header_value')).toBeNull();
  });
});

describe('buildCandidates', () => {
  it('gives a documented symbol all its declarations as gold and drops a query shared by different symbols', () => {
    const symbols = [...pythonSymbols('pkg/a.py', PY), ...pythonSymbols('pkg/b.py', 'def other():\n    """An object that stores some headers, in order."""\n')];
    const { candidates, counts } = buildCandidates(symbols);
    expect(candidates).toEqual([
      {
        query: 'Returns the current click context. This can be used to access it from anywhere, see pass_context.',
        gold: [3, 5, 7].map((startLine, i) => ({ path: 'pkg/a.py', symbol: 'get_current_context', startLine, endLine: [4, 6, 13][i] })),
      },
      {
        query: 'Like content type, but without parameters such as charset.',
        gold: [{ path: 'pkg/a.py', symbol: 'Headers.mimetype', startLine: 18, endLine: 21 }, { path: 'pkg/a.py', symbol: 'Headers.mimetype', startLine: 22, endLine: 23 }],
      },
    ]);
    expect(counts).toMatchObject({ symbols: 4, documented: 4, ambiguous: 2, candidates: 2 });
  });

  it('samples the same candidates on every run, in location order', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ query: `q ${i}`, gold: [{ path: `f${String(i).padStart(2, '0')}.py`, symbol: `s${i}`, startLine: 1, endLine: 2 }] }));
    const a = sampleCandidates(many, 10);
    expect(a).toHaveLength(10);
    expect(sampleCandidates([...many].reverse(), 10).map((c) => c.query).sort()).toEqual(a.map((c) => c.query).sort());
    expect(a.map((c) => c.gold[0]!.path)).toEqual([...a.map((c) => c.gold[0]!.path)].sort());
  });
});
