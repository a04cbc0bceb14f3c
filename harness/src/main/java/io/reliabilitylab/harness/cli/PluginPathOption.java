package io.reliabilitylab.harness.cli;

import io.reliabilitylab.runner.discovery.PluginPath;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * The {@code --plugin-path} option of the commands that discover plugins. {@link ReliabilityLab}
 * reads its values before the command runs, to build the class loader the command discovers on.
 */
final class PluginPathOption {

  static final String NAME = "--plugin-path";

  @Option(
      names = NAME,
      paramLabel = "<jars and dirs>",
      converter = Converter.class,
      description = {
        "More plugin jars, or directories of jars, separated by ':' (';' on Windows); may be"
            + " repeated. They are loaded with those in the plugins/ directory next to"
            + " reliability-lab.jar and in $"
            + PluginPath.ENVIRONMENT_VARIABLE
            + "."
      })
  @SuppressWarnings("unused") // written by picocli; read from the parse result
  private List<PluginPath> paths = new ArrayList<>();

  /** Parses one value the way a class path is parsed. */
  static final class Converter implements ITypeConverter<PluginPath> {
    @Override
    public PluginPath convert(String value) {
      return PluginPath.parse(value);
    }
  }
}
