type Waiting<Item> = { item: Item; resolve: () => void; reject: (error: unknown) => void };

/**
 * Group commit: items that arrive while an earlier write is in flight are written together, in
 * one statement and one commit, when it ends. An item arriving when no write is in flight goes
 * out as soon as the event loop has read what else arrived with it (`setImmediate`), so a quiet
 * service waits for nothing; a busy one pays one round trip and one commit for up to `maxBatch`
 * items instead of one each. (Going out at once instead would write one item at a time on the
 * embedded database, whose statements run on this thread before the next request is read.) The
 * promise of `add` settles when the write that holds its item has committed or failed.
 */
export function createWriteBatches<Item>(options: {
  write(items: Item[]): Promise<void>;
  /** The most items one write takes. */
  maxBatch: number;
  /**
   * True when a failed write certainly took no effect (the database rejected it): its items are
   * then written again one by one, so that one bad item fails alone. After any other failure (a
   * lost connection, say) the write may have committed, and every item of it fails.
   */
  tookNoEffect(error: unknown): boolean;
}): { add(item: Item): Promise<void> } {
  const { write, maxBatch, tookNoEffect } = options;
  let waiting: Array<Waiting<Item>> = [];
  let writing = false;

  async function writeBatch(batch: Array<Waiting<Item>>): Promise<void> {
    try {
      await write(batch.map(({ item }) => item));
      for (const { resolve } of batch) resolve();
    } catch (error) {
      if (batch.length === 1 || !tookNoEffect(error)) {
        for (const { reject } of batch) reject(error);
        return;
      }
      await Promise.all(
        batch.map(({ item, resolve, reject }) => write([item]).then(resolve, reject)),
      );
    }
  }

  async function drain(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting.length <= maxBatch ? waiting : waiting.slice(0, maxBatch);
      waiting = batch === waiting ? [] : waiting.slice(maxBatch);
      await writeBatch(batch);
    }
    writing = false;
  }

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (writing) return;
        writing = true;
        setImmediate(drain);
      });
    },
  };
}
