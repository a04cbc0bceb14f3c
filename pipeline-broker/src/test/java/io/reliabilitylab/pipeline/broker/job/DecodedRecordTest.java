package io.reliabilitylab.pipeline.broker.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import java.io.IOException;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class DecodedRecordTest {

  static final ChangeEnvelope CHANGE =
      new ChangeEnvelope(
          "u",
          new OrderImage(7, "order-7", 3L, 100L, "created", 10L, 1, 1_000L),
          new OrderImage(7, "order-7", 3L, 100L, "paid", 11L, 1, null),
          "mysql-bin.000003",
          1234L,
          2,
          null,
          99L);

  @Test
  void isAFlinkPojoSerializedWithoutKryo() throws IOException {
    assertThat(DecodedRecord.TYPE).isInstanceOf(PojoTypeInfo.class);
    SerializerConfigImpl config = new SerializerConfigImpl();
    config.setGenericTypes(false); // any field falling back to Kryo would throw here
    TypeSerializer<DecodedRecord> serializer = DecodedRecord.TYPE.createSerializer(config);

    DecodedRecord change = DecodedRecord.change(CHANGE, 2, 41L);
    DecodedRecord quarantined = DecodedRecord.quarantined(new byte[] {1, 2}, null, 0, 42L);
    for (DecodedRecord record : new DecodedRecord[] {change, quarantined}) {
      DataOutputSerializer out = new DataOutputSerializer(64);
      serializer.serialize(record, out);
      assertThat(serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
          .isEqualTo(record);
      assertThat(serializer.copy(record)).isEqualTo(record);
    }
  }

  @Test
  void tellsChangesFromQuarantinedRecordsAndNeverPrintsPayload() {
    DecodedRecord quarantined =
        DecodedRecord.quarantined(
            "secret".getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[] {9}, 1, 5L);

    assertThat(DecodedRecord.change(CHANGE, 0, 1L).isQuarantined()).isFalse();
    assertThat(quarantined.isQuarantined()).isTrue();
    assertThat(quarantined.toString()).doesNotContain("secret").contains("6 bytes, sha256 ");
    assertThat(DecodedRecord.change(CHANGE, 0, 1L))
        .hasToString("DecodedRecord[0@1 u mysql-bin.000003:1234#2]");
  }
}
