// Every unit test gets an in-memory IndexedDB (the real one exists only in a browser).
import 'fake-indexeddb/auto';
