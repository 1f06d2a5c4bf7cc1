import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'real-model',
    // Each file loads the model and keeps a core busy: run them one after another.
    fileParallelism: false,
  },
});
