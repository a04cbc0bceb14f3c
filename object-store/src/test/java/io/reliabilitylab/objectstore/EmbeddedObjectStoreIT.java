package io.reliabilitylab.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded object store runs S3Mock as a process of the lab: Iceberg's S3FileIO, configured
 * only with {@link EmbeddedObjectStore#fileIoProperties()}, writes, reads, lists and deletes
 * objects in it and round-trips table metadata and a manifest; closing it ends the process and
 * leaves the files.
 */
class EmbeddedObjectStoreIT {

  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "order_id", Types.LongType.get()));

  @TempDir Path directory;

  @Test
  void s3FileIoWritesReadsListsAndDeletesThroughTheStoreUntilItIsClosed() throws Exception {
    EmbeddedObjectStore store = EmbeddedObjectStore.start(directory, "lab");
    long pid = store.pid();
    String endpoint = store.endpoint();
    try (store;
        S3FileIO io = new S3FileIO()) {
      assertThat(endpoint).startsWith("http://127.0.0.1:");
      assertThat(store.bucket()).isEqualTo("lab");
      assertThat(store.warehouseLocation()).isEqualTo("s3://lab/warehouse");
      assertThat(store.directory()).isEqualTo(directory.toAbsolutePath().normalize());
      assertThat(store.alive()).isTrue();
      assertThat(Files.readString(directory.resolve("s3mock.pid"))).isEqualTo(Long.toString(pid));
      io.initialize(store.fileIoProperties());

      // 3 MiB: the SDK sends it as several signed aws-chunked chunks with a trailing checksum
      byte[] content = new byte[3 * 1024 * 1024 + 17];
      new Random(42).nextBytes(content);
      String location = store.warehouseLocation() + "/it/objects/hello.bin";
      try (OutputStream out = io.newOutputFile(location).create()) {
        out.write(content);
      }
      assertThat(io.newInputFile(location).exists()).isTrue();
      assertThat(io.newInputFile(location).getLength()).isEqualTo(content.length);
      try (InputStream in = io.newInputFile(location).newStream()) {
        assertThat(in.readAllBytes()).isEqualTo(content);
      }
      try (SeekableInputStream in = io.newInputFile(location).newStream()) {
        in.seek(content.length - 10);
        assertThat(in.readAllBytes())
            .isEqualTo(Arrays.copyOfRange(content, content.length - 10, content.length));
      }
      String other = store.warehouseLocation() + "/it/objects/other.txt";
      try (OutputStream out = io.newOutputFile(other).create()) {
        out.write("other".getBytes(StandardCharsets.UTF_8));
      }
      assertThat(listed(io, store.warehouseLocation() + "/it/objects"))
          .extracting(FileInfo::location, FileInfo::size)
          .containsExactlyInAnyOrder(tuple(location, (long) content.length), tuple(other, 5L));

      io.deleteFile(location);
      assertThat(io.newInputFile(location).exists()).isFalse();
      // the bulk delete Iceberg uses when it expires snapshots or removes orphan files
      io.deleteFiles(List.of(other));
      assertThat(listed(io, store.warehouseLocation() + "/it/objects")).isEmpty();

      roundTripsTableMetadataAndAManifest(io, store.warehouseLocation() + "/db/orders");
    }

    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(store.alive()).isFalse();
    assertThatThrownBy(() -> status(URI.create(endpoint + "/lab")))
        .isInstanceOf(ConnectException.class);
    store.close();
    try (Stream<Path> files = Files.walk(directory.resolve("store"))) {
      assertThat(files.filter(Files::isRegularFile)).isNotEmpty();
    }
    assertThat(directory.resolve("s3mock.log")).exists();
    assertThat(directory.resolve("s3mock.pid")).doesNotExist();
  }

  private static void roundTripsTableMetadataAndAManifest(S3FileIO io, String tableLocation)
      throws IOException {
    PartitionSpec spec = PartitionSpec.unpartitioned();
    TableMetadata metadata =
        TableMetadata.newTableMetadata(SCHEMA, spec, tableLocation, Map.of("owner", "lab"));
    String metadataLocation = tableLocation + "/metadata/00000-lab.metadata.json";
    TableMetadataParser.write(metadata, io.newOutputFile(metadataLocation));
    TableMetadata read = TableMetadataParser.read(io, metadataLocation);
    assertThat(read.uuid()).isEqualTo(metadata.uuid());
    assertThat(read.schema().asStruct()).isEqualTo(SCHEMA.asStruct());
    assertThat(read.properties()).containsEntry("owner", "lab");

    DataFile dataFile =
        DataFiles.builder(spec)
            .withPath(tableLocation + "/data/a.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(100)
            .withRecordCount(3)
            .build();
    ManifestWriter<DataFile> writer =
        ManifestFiles.write(2, spec, io.newOutputFile(tableLocation + "/metadata/m0.avro"), 1L);
    try (writer) {
      writer.add(dataFile);
    }
    ManifestFile manifest = writer.toManifestFile();
    try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, io)) {
      assertThat(reader)
          .singleElement()
          .satisfies(
              file -> {
                assertThat(file.location()).isEqualTo(dataFile.location());
                assertThat(file.recordCount()).isEqualTo(3);
              });
    }
  }

  private static List<FileInfo> listed(S3FileIO io, String prefix) {
    List<FileInfo> files = new ArrayList<>();
    io.listPrefix(prefix).forEach(files::add);
    return files;
  }

  private static int status(URI uri) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
    connection.setConnectTimeout(2_000);
    connection.setReadTimeout(2_000);
    try {
      return connection.getResponseCode();
    } finally {
      connection.disconnect();
    }
  }
}
