// Read by the Prisma CLI only; the service never imports it. The datasource URL is optional so that
// `prisma generate`, which needs no database, runs anywhere; migrations are applied by
// scripts/migrate.ts, which reads DATABASE_URL through core/config.ts.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
