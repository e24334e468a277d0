package io.rollgate.controller.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import org.junit.jupiter.api.Test;

class TrimmedItemStoreTest {

  static ReplicaSet rs(String name) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName(name)
        .addToLabels("rollouts-pod-template-hash", "abc")
        .withManagedFields(
            new ManagedFieldsEntryBuilder().withManager("rollgate").withOperation("Update").build())
        .endMetadata()
        .withNewSpec()
        .withReplicas(3)
        .endSpec()
        .build();
  }

  @Test
  void keepsObjectsByNamespaceAndNameWithoutManagedFields() {
    TrimmedItemStore<ReplicaSet> store = new TrimmedItemStore<>();
    ReplicaSet in = rs("app-abc");
    assertEquals("ns/app-abc", store.getKey(in));
    store.put(store.getKey(in), in);

    ReplicaSet kept = store.get("ns/app-abc");
    assertNull(kept.getMetadata().getManagedFields());
    assertEquals("abc", kept.getMetadata().getLabels().get("rollouts-pod-template-hash"));
    assertEquals(3, kept.getSpec().getReplicas());
    assertEquals(1, store.size());
  }

  @Test
  void replacingAnObjectReturnsThePreviousOne() {
    TrimmedItemStore<ReplicaSet> store = new TrimmedItemStore<>();
    ReplicaSet first = rs("app-abc");
    store.put("ns/app-abc", first);
    ReplicaSet second = rs("app-abc");
    assertSame(first, store.put("ns/app-abc", second));
    assertSame(second, store.remove("ns/app-abc"));
    assertEquals(0, store.size());
  }
}
