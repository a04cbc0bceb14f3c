package io.reliabilitylab.harness.cli;

import io.reliabilitylab.harness.secrets.LabLogging;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The {@code --out} directory, made ready before anything starts: a directory the lab cannot create
 * or write into is a usage error naming it, not a stack trace after a database was started.
 */
final class OutputDirectory {

  private OutputDirectory() {}

  /** Creates {@code directory} if needed and proves it writable, or throws a usage error. */
  static Path require(CommandSpec command, Path directory) {
    Path absolute = directory.toAbsolutePath();
    try {
      Files.createDirectories(absolute);
      Path probe = Files.createTempFile(absolute, ".srl-write-check", ".tmp");
      Files.delete(probe);
    } catch (IOException | SecurityException e) {
      throw new ParameterException(
          command.commandLine(),
          "--out "
              + directory
              + " cannot be used: "
              + reason(e)
              + "; choose a directory you can write to, e.g. --out lab-runs");
    }
    logInto(command, absolute);
    return directory;
  }

  /**
   * Once the command line configured the lab's logging: everything but the lab's warnings goes into
   * a log file in the directory, whose path the console names first.
   */
  private static void logInto(CommandSpec command, Path directory) {
    if (!LabLogging.configured()) {
      return;
    }
    try {
      Path log = LabLogging.logTo(directory);
      if (log != null) {
        command.commandLine().getErr().println("Log: " + log);
        command.commandLine().getErr().flush();
      }
    } catch (IOException e) {
      throw new ParameterException(
          command.commandLine(), "--out " + directory + " cannot hold the log file: " + reason(e));
    }
  }

  private static String reason(Exception e) {
    String message = e.getMessage();
    String kind = e.getClass().getSimpleName().replace("Exception", "");
    return switch (kind) {
      case "NoSuchFile" ->
          "a parent directory does not exist and cannot be created (" + message + ")";
      case "AccessDenied" -> "permission denied (" + message + ")";
      case "FileAlreadyExists", "NotDirectory" -> "it is a file, not a directory";
      case "FileSystem" -> "the file system refused it (" + message + ")";
      default -> kind + " (" + message + ")";
    };
  }
}
