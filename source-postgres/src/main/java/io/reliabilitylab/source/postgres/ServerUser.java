package io.reliabilitylab.source.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The operating-system user the embedded server runs as. {@code initdb} and {@code postgres} refuse
 * to run as root, and CI runs as root: there the server runs as the unprivileged {@value
 * #SERVICE_USER} user (which Debian's packages create), by {@code setpriv}, which executes the
 * server in place so that its pid is the lab's child's; anyone else runs it as themselves.
 */
record ServerUser(@Nullable String name, long uid, long gid) {

  static final String SERVICE_USER = "postgres";

  /** This JVM's user, or {@value #SERVICE_USER} when this JVM runs as root. */
  static ServerUser forThisProcess() {
    long uid = id("-u");
    if (uid != 0) {
      return new ServerUser(null, uid, id("-g"));
    }
    return lookUp(SERVICE_USER);
  }

  static ServerUser lookUp(String name) {
    long uid = id("-u", name);
    long gid = id("-g", name);
    if (uid < 0 || gid < 0) {
      throw new IllegalStateException(
          "PostgreSQL refuses to run as root and there is no '"
              + name
              + "' user to run it as: install Debian's postgresql (which creates it) or create one"
              + " with useradd --system "
              + name);
    }
    if (uid == 0) {
      throw new IllegalStateException(
          "The '" + name + "' user is root (uid 0); PostgreSQL needs an unprivileged user");
    }
    return new ServerUser(name, uid, gid);
  }

  /** Whether the server runs as another user than this JVM's. */
  boolean switches() {
    return name != null;
  }

  /** {@code command} as this user: prefixed with {@code setpriv} when it switches users. */
  List<String> command(List<String> command) {
    if (!switches()) {
      return command;
    }
    List<String> switched = new ArrayList<>();
    switched.add("setpriv");
    switched.add("--reuid=" + uid);
    switched.add("--regid=" + gid);
    switched.add("--init-groups");
    switched.add("--");
    switched.addAll(command);
    return switched;
  }

  /** Gives the tree under {@code directory} to this user, so that the server may write it. */
  void own(Path directory) throws IOException {
    if (!switches()) {
      return;
    }
    UserPrincipalLookupService users = directory.getFileSystem().getUserPrincipalLookupService();
    var owner = users.lookupPrincipalByName(name);
    GroupPrincipal group = users.lookupPrincipalByGroupName(Long.toString(gid));
    Files.walkFileTree(
        directory,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes)
              throws IOException {
            give(dir);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            give(file);
            return FileVisitResult.CONTINUE;
          }

          private void give(Path path) throws IOException {
            PosixFileAttributeView view =
                Files.getFileAttributeView(path, PosixFileAttributeView.class);
            view.setOwner(owner);
            view.setGroup(group);
          }
        });
  }

  /** What {@code id} answers, e.g. {@code id -u postgres}; -1 when it cannot tell. */
  private static long id(String... arguments) {
    List<String> command = new ArrayList<>();
    command.add("id");
    command.addAll(List.of(arguments));
    try {
      Process id = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!id.waitFor(10, TimeUnit.SECONDS) || id.exitValue() != 0) {
        return -1;
      }
      return Long.parseLong(output);
    } catch (IOException | NumberFormatException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
