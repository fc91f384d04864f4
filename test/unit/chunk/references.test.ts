import { describe, expect, it } from 'vitest';
import { referencedNames } from '../../../src/chunk/references.js';
import { identifierTerms, splitIdentifier } from '../../../src/chunk/identifiers.js';

describe('referencedNames', () => {
  it('TypeScript: calls, constructors, annotations and named imports', () => {
    const names = referencedNames('typescript', "import { parseArgs, type Options as Opts } from './args';\nconst s: Session = new Session(parseArgs(argv));");
    expect(names).toEqual(expect.arrayContaining(['parseArgs', 'Options', 'Session']));
    expect(names).not.toContain('Opts');
  });

  it('Python: module-qualified calls, base classes, raised errors and decorators, not self. calls', () => {
    const text = [
      'class Client(BaseTransport, Mixin):',
      '    @retry_policy(times=2)',
      '    def send(self):',
      '        payload = codec.encode_body(self.body)',
      '        self.flush_buffer()',
      '        raise errors.TimeoutError("slow")',
    ].join('\n');
    const names = referencedNames('python', text);
    expect(names).toEqual(expect.arrayContaining(['BaseTransport', 'retry_policy', 'encode_body', 'TimeoutError']));
    expect(names).not.toContain('flush_buffer');
  });

  it('Go: package-qualified exported names and types in signatures and literals', () => {
    const text = 'func NewServer(store Store) *Server {\n\ts := &Server{mux: http.NewServeMux()}\n\tu, _ := users.FindByID(ctx, id)\n\treturn s\n}';
    const names = referencedNames('go', text);
    expect(names).toEqual(expect.arrayContaining(['NewServeMux', 'FindByID', 'Store', 'Server']));
  });

  it('names in quotes: RPC methods, tasks and events another language defines', () => {
    const names = referencedNames('typescript', "rpc('billing.open_balances', { id }); emit(\"userSignedUp\"); get('/api/users'); log('done')");
    expect(names).toEqual(expect.arrayContaining(['open_balances', 'userSignedUp']));
    expect(names).not.toContain('users');
    expect(names).not.toContain('done');
  });

  it('Rust: paths, compound types and member calls', () => {
    const names = referencedNames('rust', 'let cache = LruCache::with_capacity(8);\nlet entry = store::load_entry(&key)?;\ncache.put_entry(entry);');
    expect(names).toEqual(expect.arrayContaining(['LruCache', 'with_capacity', 'store', 'load_entry', 'put_entry']));
  });

  it('Java and Kotlin: compound types and member calls, not one-word ones', () => {
    const java = referencedNames('java', 'Order order = orderRepository.findById(id).orElseThrow();\nreturn new OrderView(order.total());');
    expect(java).toEqual(expect.arrayContaining(['Order', 'OrderView', 'findById', 'orElseThrow']));
    expect(java).not.toContain('total');
    expect(referencedNames('kotlin', 'val svc = InvoiceService.inMemory()\nsvc?.settleAll()')).toEqual(expect.arrayContaining(['InvoiceService', 'inMemory', 'settleAll']));
  });

  it('C, C++, Ruby, PHP, Bash and Swift: each language\'s own forms', () => {
    expect(referencedNames('c', 'struct ring_buffer *rb = ring_new(8);\nrb->write_bytes(x);')).toEqual(expect.arrayContaining(['ring_buffer', 'ring_new', 'write_bytes']));
    expect(referencedNames('cpp', 'auto cache = store::LruCache<Key>::create(8);')).toEqual(expect.arrayContaining(['store', 'LruCache', 'create']));
    expect(referencedNames('ruby', 'req = Rack::Request.new(env)\nInvoice.new(lines).total_due')).toEqual(expect.arrayContaining(['Rack', 'Request', 'Invoice']));
    expect(referencedNames('php', '$user = UserRepository::findActive($id); $view = new ProfileView($user);')).toEqual(expect.arrayContaining(['UserRepository', 'findActive', 'ProfileView']));
    expect(referencedNames('bash', 'build_image "$tag" && push_image "$tag"\nresult=$(fetch_manifest)')).toEqual(expect.arrayContaining(['build_image', 'push_image', 'fetch_manifest']));
    expect(referencedNames('swift', 'let store = TokenStore.inMemory()')).toEqual(expect.arrayContaining(['TokenStore', 'inMemory']));
  });

  it('falls back to the shared forms for a language without its own', () => {
    expect(referencedNames(null, 'x = compute_total(items)')).toEqual(['compute_total']);
  });
});

describe('identifier splitting across naming styles', () => {
  it.each([
    ['parse_http_response', ['parse', 'http', 'response']],
    ['MAX_RETRY_COUNT', ['max', 'retry', 'count']],
    ['user-profile-card', ['user', 'profile', 'card']],
    ['parseHTTPResponse2xx', ['parse', 'http', 'response', '2', 'xx']],
    ['__init__', ['init']],
  ])('%s', (identifier, terms) => {
    expect(splitIdentifier(identifier)).toEqual(terms);
  });

  it('terms of snake_case and kebab-case code', () => {
    expect(identifierTerms('def load_user_profile(user_id): return fetch-user-data')).toEqual(
      expect.arrayContaining(['load', 'user', 'profile', 'id', 'fetch', 'data']),
    );
  });
});
