/** The background's one database connection. Only background modules import `lib/db`. */
import { openRecipeDb, type RecipeDatabase } from '../../lib/db';

let connection: Promise<RecipeDatabase> | null = null;

/** The database connection, opened on first use (again after the worker restarts or a newer version closed it). */
export function db(): Promise<RecipeDatabase> {
  connection ??= openRecipeDb({ onClosed: () => (connection = null) }).catch((error: unknown) => {
    connection = null;
    throw error;
  });
  return connection;
}
