import { LinesPerTurn } from './log-lines';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('LinesPerTurn', () => {
  it('writes the lines of one turn together, in order, once that turn is over', async () => {
    const writes: string[] = [];
    const lines = new LinesPerTurn({ write: (text) => writes.push(text) });
    lines.write('one\n');
    lines.write('two\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['one\ntwo\n']);

    lines.write('three\n');
    await nextTurn();
    expect(writes).toEqual(['one\ntwo\n', 'three\n']);
    await nextTurn();
    expect(writes).toHaveLength(2);
  });

  it('writes what is pending at once when flushed (as on exit)', () => {
    const writes: string[] = [];
    const lines = new LinesPerTurn({ write: (text) => writes.push(text) });
    lines.write('last words\n');
    lines.flush();
    expect(writes).toEqual(['last words\n']);
  });
});
