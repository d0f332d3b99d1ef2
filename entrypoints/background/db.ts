/** The background's one database connection. Only background modules import `lib/db`. */
import { countWrites, openRecipeDb, watchPageWrites, type RecipeDatabase } from '../../lib/db';
import { refreshClaimsIndex } from './claims-index';

let connection: Promise<RecipeDatabase> | null = null;

/** The database connection, opened on first use (again after the worker restarts or a newer version closed it). */
export function db(): Promise<RecipeDatabase> {
  connection ??= openRecipeDb({ onClosed: () => (connection = null) }).then(
    (opened) => {
      // Write transactions are counted: an answer read from the store can be kept until the next one (survey.ts).
      const d = countWrites(opened);
      // Every write of the pages store keeps the page script's claims index exact before it is answered.
      watchPageWrites(d, refreshClaimsIndex);
      return d;
    },
    (error: unknown) => {
      connection = null;
      throw error;
    },
  );
  return connection;
}
