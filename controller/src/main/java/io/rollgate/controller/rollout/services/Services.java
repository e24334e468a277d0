package io.rollgate.controller.rollout.services;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Service;
import io.rollgate.api.Annotations;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.cache.RolloutReferences;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.validation.FieldError;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Services a Rollout points at (blue-green active/preview, canary stable/canary): reference
 * validation (docs/compatibility.md §2.3 item 1), selector switching (§5.7, §7.4) and release of
 * Services no Rollout references any more (§6, service controller).
 *
 * <p>A switch is a JSON merge patch that sets {@code spec.selector.rollouts-pod-template-hash} and
 * the {@code argo-rollouts.argoproj.io/managed-by-rollouts: <rollout>} annotation, guarded by the
 * Service's resourceVersion; a release removes both. Strategies decide <em>which</em> hash a
 * Service gets; this class only writes it.
 */
public final class Services {

  private static final Logger LOG = LoggerFactory.getLogger(Services.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final RolloutCache cache;
  private final KubeApi api;
  private final EventRecorder events;

  /**
   * Creates the Service step.
   *
   * @param cache the informer caches (Services), told about every Service written
   * @param api the API facade (selector and annotation patches)
   * @param events the event recorder
   */
  public Services(RolloutCache cache, KubeApi api, EventRecorder events) {
    this.cache = cache;
    this.api = api;
    this.events = events;
  }

  /** The pod-template hash a Service selects, or null when its selector has none. */
  public static String selectedHash(Service svc) {
    if (svc == null || svc.getSpec() == null || svc.getSpec().getSelector() == null) {
      return null;
    }
    String h = svc.getSpec().getSelector().get(Labels.POD_TEMPLATE_HASH);
    return h == null || h.isEmpty() ? null : h;
  }

  /** The Rollout named in the Service's managed-by annotation, or null. */
  public static String managedBy(Service svc) {
    Map<String, String> a = svc.getMetadata().getAnnotations();
    return a == null ? null : a.get(Annotations.MANAGED_BY_ROLLOUTS);
  }

  /**
   * Validates one Service reference (docs/compatibility.md §2.3 item 1): the Service exists, is not
   * managed by another Rollout, and every key of its selector except {@code
   * rollouts-pod-template-hash} equals the Rollout's template label.
   *
   * @param rollout the Rollout
   * @param path the field path of the reference, for example {@code
   *     spec.strategy.blueGreen.activeService}
   * @param name the Service name (null or empty: nothing to check)
   * @return the problems found, in Argo's order (empty when the reference is valid)
   */
  public List<FieldError> validate(Rollout rollout, String path, String name) {
    List<FieldError> errors = new ArrayList<>();
    if (name == null || name.isEmpty()) {
      return errors;
    }
    Service svc = cache.service(rollout.getMetadata().getNamespace(), name);
    if (svc == null) {
      errors.add(FieldError.invalid(path, name, "service \"" + name + "\" not found"));
      return errors;
    }
    String owner = managedBy(svc);
    if (owner != null && !owner.equals(rollout.getMetadata().getName())) {
      errors.add(
          FieldError.invalid(path, name, "Service \"" + name + "\" is managed by another Rollout"));
    }
    Map<String, String> selector = svc.getSpec() == null ? null : svc.getSpec().getSelector();
    if (selector != null) {
      var template = rollout.getSpec().getTemplate();
      Map<String, String> labels =
          template == null
                  || template.getMetadata() == null
                  || template.getMetadata().getLabels() == null
              ? Map.of()
              : template.getMetadata().getLabels();
      for (Map.Entry<String, String> e : new TreeMap<>(selector).entrySet()) {
        if (!Labels.POD_TEMPLATE_HASH.equals(e.getKey())
            && !e.getValue().equals(labels.get(e.getKey()))) {
          errors.add(
              FieldError.invalid(
                  path,
                  name,
                  "Service \"" + name + "\" has unmatch label \"" + e.getKey() + "\" in rollout"));
        }
      }
    }
    return errors;
  }

  /**
   * Points a Service at a pod-template hash, adopting it with the managed-by annotation when
   * missing; records the {@code SwitchService} event when the hash changed. Writes nothing when
   * both are already right.
   *
   * @param pass the pass (Rollout, context)
   * @param svc the Service as read this pass
   * @param hash the hash to select (null or empty: nothing is written)
   * @return a Future completing with the Service as it is now; fails with a 409 {@code
   *     KubeApiException} when the Service changed since it was read
   */
  public Future<Service> switchSelector(RolloutPass pass, Service svc, String hash) {
    if (svc == null || hash == null || hash.isEmpty()) {
      return Future.succeededFuture(svc);
    }
    String current = selectedHash(svc);
    boolean managed = pass.name().equals(managedBy(svc));
    if (hash.equals(current) && managed) {
      return Future.succeededFuture(svc);
    }
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    meta.put("resourceVersion", svc.getMetadata().getResourceVersion());
    meta.putObject("annotations").put(Annotations.MANAGED_BY_ROLLOUTS, pass.name());
    patch.putObject("spec").putObject("selector").put(Labels.POD_TEMPLATE_HASH, hash);
    String name = svc.getMetadata().getName();
    return api.patchService(pass.namespace(), name, patch.toString())
        .onSuccess(
            updated -> {
              cache.wrote(updated);
              if (hash.equals(current)) {
                LOG.info("{} adopted Service {} (selects {})", pass.ctx, name, hash);
              } else {
                String from = current == null ? "" : current;
                LOG.info(
                    "{} switched selector of Service {} from '{}' to '{}'",
                    pass.ctx,
                    name,
                    from,
                    hash);
                events.normal(
                    pass.rollout,
                    "SwitchService",
                    "Switched selector for service '"
                        + name
                        + "' from '"
                        + from
                        + "' to '"
                        + hash
                        + "'");
              }
            });
  }

  /**
   * Releases the Services annotated as managed by this Rollout that it no longer names (it switched
   * to other Services) and that no other Rollout names.
   *
   * @param ctx the reconcile context
   * @param rollout the Rollout
   * @return a Future completing when every such Service is released; fails on an API error
   */
  public Future<Void> releaseUnreferenced(ReconcileContext ctx, Rollout rollout) {
    Set<String> referenced = RolloutReferences.services(rollout);
    Future<Void> chain = Future.succeededFuture();
    for (Service svc :
        cache.servicesManagedBy(
            rollout.getMetadata().getNamespace(), rollout.getMetadata().getName())) {
      if (!referenced.contains(svc.getMetadata().getName()) && releasable(svc)) {
        chain = chain.compose(v -> release(ctx, svc, "no longer referenced by the Rollout"));
      }
    }
    return chain;
  }

  /**
   * Releases the Services annotated as managed by a Rollout that is gone (when they select a hash
   * and no other Rollout names them). The Rollout may merely be invisible to this controller
   * (another controller instance id, another watched namespace), so its absence is confirmed with
   * the API server before anything is written.
   *
   * @param ctx the reconcile context of the missing Rollout
   * @return a Future completing when the Services are released or the Rollout turned out to exist;
   *     fails on an API error
   */
  public Future<Void> releaseAfterDeletion(ReconcileContext ctx) {
    List<Service> managed = cache.servicesManagedBy(ctx.namespace(), ctx.name());
    if (managed.isEmpty()) {
      return Future.succeededFuture();
    }
    return api.get(Rollout.class, ctx.namespace(), ctx.name())
        .compose(
            existing -> {
              if (existing != null) {
                LOG.debug("{} not in the cache but exists; its Services are left alone", ctx);
                return Future.succeededFuture();
              }
              Future<Void> chain = Future.succeededFuture();
              for (Service svc : managed) {
                if (releasable(svc)) {
                  chain = chain.compose(v -> release(ctx, svc, "the Rollout was deleted"));
                }
              }
              return chain;
            });
  }

  /**
   * Whether a Service may be released (docs/compatibility.md §6): it selects a pod-template hash
   * and no Rollout the controller sees names it.
   */
  private boolean releasable(Service svc) {
    return selectedHash(svc) != null
        && cache
            .rolloutsReferencing(svc.getMetadata().getNamespace(), svc.getMetadata().getName())
            .isEmpty();
  }

  private Future<Void> release(ReconcileContext ctx, Service svc, String why) {
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    meta.put("resourceVersion", svc.getMetadata().getResourceVersion());
    meta.putObject("annotations").putNull(Annotations.MANAGED_BY_ROLLOUTS);
    patch.putObject("spec").putObject("selector").putNull(Labels.POD_TEMPLATE_HASH);
    String name = svc.getMetadata().getName();
    return api.patchService(svc.getMetadata().getNamespace(), name, patch.toString())
        .onSuccess(
            updated -> {
              cache.wrote(updated);
              LOG.info(
                  "{} released Service {} ({}): removed selector {} and annotation {}",
                  ctx,
                  name,
                  why,
                  Labels.POD_TEMPLATE_HASH,
                  Annotations.MANAGED_BY_ROLLOUTS);
            })
        .mapEmpty();
  }
}
