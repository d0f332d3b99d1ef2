/** The background's one database connection. Only background modules import `lib/db`. */
import { openRecipeDb, watchPageWrites, type RecipeDatabase } from '../../lib/db';
import { refreshClaimsIndex } from './claims-index';

let connection: Promise<RecipeDatabase> | null = null;

/** The database connection, opened on first use (again after the worker restarts or a newer version closed it). */
export function db(): Promise<RecipeDatabase> {
  connection ??= openRecipeDb({ onClosed: () => (connection = null) }).then(
    (d) => {
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
