/** The `survey` program: runs the CLI on the process's arguments, streams and working directory. */
import { main } from './cli';

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
