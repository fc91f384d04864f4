import { describe, expect, it } from 'vitest';
import { TreeSitterChunker } from '../../../../src/chunk/tree-sitter-chunker.js';
import { outline, readFixture, uncoveredLinesExcept } from '../chunk-helpers.js';

const chunker = new TreeSitterChunker({ maxTokens: 256 });
const IMPORTS = /^\s*(?:global\s+)?using\s+(?:static\s+)?[\w.]+(?:\s*=\s*[\w.<>, ]+)?\s*;$/gm;

describe('C# symbol chunks', () => {
  const content = readFixture('UserStore.cs');
  const { chunks, warnings } = chunker.chunk({ path: 'src/Acme.Users/UserStore.cs', language: 'csharp', content });
  const byLine = (line: number) => chunks.find((c) => c.startLine === line)!;

  it('chunks namespaces (block and file-scoped), types, methods, constructors and indexers; fields and simple properties stay in the class', () => {
    expect(warnings).toEqual([]);
    expect(outline(chunks)).toEqual([
      'namespace Acme.Users - 5-6',
      'class UserStore Acme.Users 7-16',
      'method UserStore Acme.Users.UserStore 18-22',
      'method Find Acme.Users.UserStore 24-26',
      'method FindAll Acme.Users.UserStore 28-34',
      'method this Acme.Users.UserStore 35-41',
      'class UserStore Acme.Users 43-43',
      'class Snapshot Acme.Users.UserStore 45-49',
      'interface IUserStore Acme.Users 51-55',
      'class UserId Acme.Users 57-57',
      'enum Role Acme.Users 59-60',
      'module UserStore - 62-62',
      'class UserExtensions Acme.Users.Extensions 64-65',
      'method Label Acme.Users.Extensions.UserExtensions 66-68',
      'class Range Acme.Users.Extensions 70-73',
      'method Contains Acme.Users.Extensions.Range 75-79',
      'type UserChanged Acme.Users.Extensions 81-81',
    ]);
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('keeps attributes, XML doc comments and #region lines with the member, and signatures start after the attributes', () => {
    const store = byLine(7);
    expect(store.text.startsWith('    /// <summary>\n    /// Keeps users in memory, keyed by id.\n    /// </summary>\n    [Serializable]\n    [Obsolete("Use SqlUserStore")]\n    public sealed class')).toBe(true);
    expect(store.signature).toBe('public sealed class UserStore<TUser> : IUserStore<TUser> where TUser : class, IUser');
    expect(store.text).toContain('public string Name { get; private set; } = "memory";');
    expect(store.embedText).toContain('// class Acme.Users.UserStore\n');
    expect(byLine(24).text.startsWith('        #region Lookups\n        /// <summary>The user with this id, or null.</summary>\n        public TUser? Find(int id)')).toBe(true);
    expect(byLine(24).signature).toBe('public TUser? Find(int id)');
    expect(byLine(28).signature).toBe('public IEnumerable<TUser> FindAll(Func<TUser, bool> predicate)');
    expect(byLine(35).text.startsWith('        #endregion\n\n        public TUser this[int id]\n')).toBe(true);
    expect(byLine(35).signature).toBe('public TUser this[int id]');
    expect(byLine(51).text).toContain('TUser? Find(int id);');
    expect(byLine(66).signature).toBe('public static string Label(this IUser user)');
    expect(byLine(62).text).toBe('namespace Acme.Users.Extensions;');
  });

  it('chunks members inside #if / #else blocks as members of the enclosing type', () => {
    const content = `public class Probe\n{\n    public int Count() => 1;\n#if DEBUG\n    /// Dumps the state.\n    public void Dump()\n    {\n        Console.WriteLine(this);\n    }\n#else\n    public void Dump() { }\n#endif\n}\n`;
    const { chunks } = chunker.chunk({ path: 'Probe.cs', language: 'csharp', content });
    const dumps = chunks.filter((c) => c.symbol === 'Dump');
    expect(dumps.map((c) => [c.kind, c.parent, c.signature])).toEqual([
      ['method', 'Probe', 'public void Dump()'],
      ['method', 'Probe', 'public void Dump()'],
    ]);
    expect(dumps[0]!.text).toContain('    /// Dumps the state.\n    public void Dump()\n');
    expect(uncoveredLinesExcept(content, chunks, IMPORTS)).toEqual([]);
  });

  it('reads /// <summary> doc text into the header of later parts', () => {
    const long = `class Loader\n{\n    /// <summary>\n    /// Loads every setting from disk.\n    /// </summary>\n    [Pure]\n    public Settings Load(string path)\n    {\n${Array.from({ length: 120 }, (_, i) => `        var value${i} = ReadSetting(path, "key_${i}");`).join('\n')}\n        return new Settings();\n    }\n}\n`;
    const parts = new TreeSitterChunker({ maxTokens: 128 }).chunk({ path: 'Loader.cs', language: 'csharp', content: long }).chunks.filter((c) => c.symbol === 'Load');
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[1]!.embedText).toContain('// public Settings Load(string path)\n// Loads every setting from disk.\n');
  });
});
