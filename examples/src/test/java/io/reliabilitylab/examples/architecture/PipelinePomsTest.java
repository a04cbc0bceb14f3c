package io.reliabilitylab.examples.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The two pipeline POMs never name each other, so that Debezium 1.9 (bundled in Flink CDC) and
 * Debezium 3.x meet only where the packaging decision says they may; and no pipeline or source POM
 * brings the runner, the record, the JUnit extension, the command line or a logging binding outside
 * its tests.
 */
class PipelinePomsTest {

  /** Surefire sets {@code basedir} to this module's directory; the POMs are its siblings. */
  private static Path pom(String module) {
    return Path.of(System.getProperty("basedir", "."))
        .resolve("..")
        .resolve(module)
        .resolve("pom.xml");
  }

  @ParameterizedTest
  @CsvSource({"pipeline-direct, pipeline-broker", "pipeline-broker, pipeline-direct"})
  void aPipelinePomNeverNamesTheOtherPipeline(String module, String other) throws Exception {
    Path pom = pom(module);
    assertThat(pom).as("the %s POM next to examples", module).isRegularFile();
    Document document = parse(pom);

    assertThat(childText(document.getDocumentElement(), "artifactId"))
        .as("the POM read is the module's own")
        .isEqualTo("reliability-lab-" + module);
    assertThat(textOfAll(document, "artifactId"))
        .as("artifactIds named anywhere in %s (dependencies, managed dependencies, plugins)", pom)
        .noneMatch(artifactId -> artifactId.contains(other));
    assertThat(textOfAll(document, "module")).noneMatch(name -> name.contains(other));
    assertThat(Files.readString(pom))
        .as("%s must not name reliability-lab-%s in any form", pom, other)
        .doesNotContain("reliability-lab-" + other);
  }

  @ParameterizedTest
  @CsvSource({"pipeline-flink", "pipeline-direct", "pipeline-broker", "source-mysql"})
  void aPipelineOrSourcePomNamesTheRunnerAndALoggingBindingOnlyForItsTests(String module)
      throws Exception {
    NodeList dependencies = parse(pom(module)).getElementsByTagName("dependency");
    List<String> outsideTests = new ArrayList<>();
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element dependency = (Element) dependencies.item(i);
      if (!childText(dependency, "scope").equals("test")) {
        outsideTests.add(childText(dependency, "artifactId"));
      }
    }
    assertThat(outsideTests)
        .as("what %s depends on outside its tests", module)
        .isNotEmpty()
        .noneMatch(
            artifactId ->
                artifactId.matches(
                    "reliability-lab-(runner|record|report|junit|harness|examples)|logback-.*|picocli"));
  }

  private static Document parse(Path pom) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    factory.setNamespaceAware(false);
    return factory.newDocumentBuilder().parse(pom.toFile());
  }

  private static List<String> textOfAll(Document document, String element) {
    NodeList nodes = document.getElementsByTagName(element);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      texts.add(nodes.item(i).getTextContent().strip());
    }
    return texts;
  }

  private static String childText(Element parent, String child) {
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i) instanceof Element element && element.getTagName().equals(child)) {
        return element.getTextContent().strip();
      }
    }
    return "";
  }
}
