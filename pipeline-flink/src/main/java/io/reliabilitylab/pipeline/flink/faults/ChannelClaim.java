package io.reliabilitylab.pipeline.flink.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims one arming's firing with a create-new marker in the control directory ({@code O_EXCL}: one
 * JVM wins, also an earlier incarnation of the job), then writes the firing back for the lab.
 */
final class ChannelClaim implements FiringClaim {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelClaim.class);

  private final ChannelLayout layout;
  private final String faultId;
  private final String token;

  ChannelClaim(ChannelLayout layout, String faultId, String token) {
    this.layout = layout;
    this.faultId = faultId;
    this.token = token;
  }

  @Override
  public boolean claim(FaultFiring firing) {
    try {
      Files.write(
          layout.claimFile(faultId, token),
          firing.process().getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      LOG.warn(
          "Fault {}: cannot claim its firing in {}, so it does not fire here: {}",
          faultId,
          layout.root(),
          e.toString());
      return false;
    }
    try {
      ChannelLayout.writeAtomically(
          layout.firingFile(faultId), ChannelLayout.firingProperties(firing, token));
    } catch (IOException e) {
      LOG.warn(
          "Fault {} fired, but its firing could not be written to {}: {}",
          faultId,
          layout.root(),
          e.toString());
    }
    return true;
  }
}
