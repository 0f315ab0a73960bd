import {defineConfig} from 'vitest/config'

// Two projects: `unit` needs nothing but Node; `e2e` starts a real kube-apiserver + etcd
// (built from Go modules by controlplane/build.ts) once per run.
export default defineConfig({
  test: {
    disableConsoleIntercept: true, // @oclif/test captures process.stdout.write (oclif/test#655)
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: ['test/helpers/fast-check-seed.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/setup/global-setup.ts'],
          fileParallelism: false,
          // it.concurrent tests of one file (scenarios in their own namespaces) run this many at once.
          maxConcurrency: 4,
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
})
