/**
 * One generation at a time, the others waiting in arrival order: the behaviour of llama.cpp's server started with
 * `-np 1` (one slot) and of LM Studio. A task that throws does not stop the ones behind it.
 */
export class OneSlot {
  private tail: Promise<unknown> = Promise.resolve();
  private waitingCount = 0;

  /** Tasks waiting or running. */
  get pending(): number {
    return this.waitingCount;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.waitingCount += 1;
    const result = this.tail.then(task).finally(() => {
      this.waitingCount -= 1;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}
