package io.rollgate.controller.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutTrafficRouting;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.controller.aws.LoadBalancerProvider;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Picks the {@link TrafficRouter}s a Rollout's {@code spec.strategy.canary.trafficRouting}
 * configures, in Argo's order (docs/compatibility.md §1.5: istio, nginx, alb, smi, ambassador,
 * appMesh, traefik, apisix, plugins). Built-in routers: Istio, NGINX, AWS ALB, SMI, Ambassador, App
 * Mesh, Traefik, APISIX, and Gateway API under its plugin name; other plugin names are looked up
 * among the registered plugin routers. A configured router this controller does not implement
 * yields a router whose every call fails with a clear message, so the Rollout reports {@code
 * TrafficRoutingError} instead of silently shifting nothing.
 */
public final class TrafficRouters {

  /** The Istio API version Argo Rollouts uses by default ({@code --istio-api-version}). */
  public static final String ISTIO_API_VERSION = "v1alpha3";

  private final IstioTrafficRouter istio;
  private final NginxTrafficRouter nginx;
  private final SmiTrafficRouter smi;
  private final AlbTrafficRouter alb;
  private final ApisixTrafficRouter apisix;
  private final AmbassadorTrafficRouter ambassador;
  private final AppMeshTrafficRouter appMesh;
  private final TraefikTrafficRouter traefik;
  private final Map<String, TrafficRouter> plugins = new LinkedHashMap<>();
  private final Function<String, TrafficRouter> pluginRouters;
  private final TargetGroupVerifier targetGroups;

  /**
   * Creates the built-in routers.
   *
   * @param api the API facade
   * @param events the event recorder
   * @param smiVersion the SMI TrafficSplit version (Argo's {@code --traffic-split-api-version},
   *     default v1alpha1)
   */
  public TrafficRouters(KubeApi api, EventRecorder events, String smiVersion) {
    this(api, events, smiVersion, null);
  }

  /**
   * Creates the built-in routers and takes every other {@code trafficRouting.plugins} key to the
   * plugin host.
   *
   * @param api the API facade
   * @param events the event recorder
   * @param smiVersion the SMI TrafficSplit version (Argo's {@code --traffic-split-api-version},
   *     default v1alpha1)
   * @param pluginRouters the router of a registered plugin name (the plugin host's), or null when
   *     plugins are off; for a built-in name or one given to {@link #registerPlugin}, it is used
   *     only when it is a {@link HostedTrafficRouter} whose plugin is registered (a registered
   *     plugin takes precedence)
   */
  public TrafficRouters(
      KubeApi api,
      EventRecorder events,
      String smiVersion,
      Function<String, TrafficRouter> pluginRouters) {
    this(api, events, smiVersion, RouterApiVersions.DEFAULTS, pluginRouters);
  }

  /**
   * Creates the built-in routers with the router API versions of the controller flags.
   *
   * @param api the API facade
   * @param events the event recorder
   * @param smiVersion the SMI TrafficSplit version (Argo's {@code --traffic-split-api-version},
   *     default v1alpha1)
   * @param versions the Traefik, Ambassador and App Mesh API versions ({@code --traefik-api-group}
   *     and the like)
   * @param pluginRouters the router of a registered plugin name (the plugin host's), or null when
   *     plugins are off; built-in names and {@link #registerPlugin} take precedence
   */
  public TrafficRouters(
      KubeApi api,
      EventRecorder events,
      String smiVersion,
      RouterApiVersions versions,
      Function<String, TrafficRouter> pluginRouters) {
    this(api, events, smiVersion, versions, pluginRouters, null);
  }

  /**
   * Creates the built-in routers with the router API versions of the controller flags and, with
   * {@code --aws-verify-target-group}, the AWS reads of the ALB router's weight verification.
   *
   * @param api the API facade
   * @param events the event recorder
   * @param smiVersion the SMI TrafficSplit version (Argo's {@code --traffic-split-api-version},
   *     default v1alpha1)
   * @param versions the Traefik, Ambassador and App Mesh API versions ({@code --traefik-api-group}
   *     and the like)
   * @param pluginRouters the router of a registered plugin name (the plugin host's), or null when
   *     plugins are off; built-in names and {@link #registerPlugin} take precedence
   * @param albTargetGroups the AWS Elastic Load Balancing reads, or null when ALB weights are not
   *     verified
   */
  public TrafficRouters(
      KubeApi api,
      EventRecorder events,
      String smiVersion,
      RouterApiVersions versions,
      Function<String, TrafficRouter> pluginRouters,
      LoadBalancerProvider albTargetGroups) {
    this.pluginRouters = pluginRouters;
    this.istio = new IstioTrafficRouter(api, events, ISTIO_API_VERSION);
    this.nginx = new NginxTrafficRouter(api, events);
    this.smi = new SmiTrafficRouter(api, events, smiVersion);
    this.alb = new AlbTrafficRouter(api, events, albTargetGroups);
    this.targetGroups =
        albTargetGroups == null ? null : new TargetGroupVerifier(api, events, albTargetGroups);
    this.apisix = new ApisixTrafficRouter(api, events);
    this.ambassador =
        new AmbassadorTrafficRouter(
            api,
            events,
            versions.mappingApiVersion(),
            versions.mappingKind(),
            AmbassadorTrafficRouter.ZERO_WEIGHT_GRACE);
    this.appMesh = new AppMeshTrafficRouter(api, events, versions.appMeshApiVersion());
    this.traefik = new TraefikTrafficRouter(api, events, versions.traefikServiceApiVersion());
    plugins.put(GatewayApiTrafficRouter.PLUGIN_NAME, new GatewayApiTrafficRouter(api));
  }

  /**
   * Whether the ALB router verifies weights against AWS target groups ({@code
   * --aws-verify-target-group}).
   *
   * @return true when it does; {@code status.alb}/{@code status.albs} are then kept between
   *     verifications
   */
  public boolean verifiesAlbTargetGroups() {
    return alb.verifiesTargetGroups();
  }

  /**
   * The target registration check of {@code --aws-verify-target-group} (TargetGroupBindings against
   * AWS targets).
   *
   * @return the verifier, or null when the flag is off
   */
  public TargetGroupVerifier targetGroupVerifier() {
    return targetGroups;
  }

  /**
   * Registers a plugin router under its {@code "<org>/<name>"} key of {@code
   * trafficRouting.plugins} (the plugin host does this for out-of-process plugins).
   *
   * @param name the plugin name
   * @param router the router
   */
  public void registerPlugin(String name, TrafficRouter router) {
    plugins.put(name, router);
  }

  /**
   * Returns the routers of a Rollout, in reconcile order.
   *
   * @param rollout the Rollout
   * @return the routers; empty without {@code trafficRouting} or when it names no router
   */
  public List<TrafficRouter> forRollout(Rollout rollout) {
    List<TrafficRouter> list = new ArrayList<>();
    var canary = rollout.getSpec().getStrategy().getCanary();
    RolloutTrafficRouting tr = canary == null ? null : canary.getTrafficRouting();
    if (tr == null) {
      return list;
    }
    if (tr.getIstio() != null) {
      list.add(istio);
    }
    if (tr.getNginx() != null) {
      list.add(nginx);
    }
    if (tr.getAlb() != null) {
      list.add(alb);
    }
    if (tr.getSmi() != null) {
      list.add(smi);
    }
    if (tr.getAmbassador() != null) {
      list.add(ambassador);
    }
    if (tr.getAppMesh() != null) {
      list.add(appMesh);
    }
    if (tr.getTraefik() != null) {
      list.add(traefik);
    }
    if (tr.getApisix() != null) {
      list.add(apisix);
    }
    if (tr.getPlugins() != null) {
      for (Map.Entry<String, JsonNode> e : tr.getPlugins().entrySet()) {
        TrafficRouter r = plugins.get(e.getKey());
        if (pluginRouters != null) {
          // A registered plugin takes precedence over a built-in router of the same name.
          TrafficRouter hosted = pluginRouters.apply(e.getKey());
          if (r == null || (hosted instanceof HostedTrafficRouter h && h.registered())) {
            r = hosted;
          }
        }
        list.add(r != null ? r : unsupported("plugin " + e.getKey()));
      }
    }
    return list;
  }

  /**
   * Deletes router objects the Rollout generated and no longer uses (NGINX canary Ingresses) and
   * releases the ones it no longer references (Istio DestinationRules: managed-by annotation and
   * subset hashes removed).
   *
   * @param req the Rollout
   * @return a Future completing when both are done; failing with the first failure after both have
   *     finished
   */
  public Future<Void> releaseUnused(TrafficRequest req) {
    return Future.join(nginx.releaseUnused(req), istio.releaseUnused(req)).mapEmpty();
  }

  /**
   * Releases the router objects of a Rollout that no longer exists: ALB actions it managed are
   * reset to their own Service (docs/traffic-routers.md). Objects the Rollout controls (canary
   * Ingresses, header ApisixRoutes) go with it through garbage collection.
   *
   * @param namespace the Rollout's namespace
   * @param name the Rollout's name
   * @return a Future completing when done; failing with the first API error
   */
  public Future<Void> releaseAfterDeletion(String namespace, String name) {
    return alb.releaseAfterDeletion(namespace, name);
  }

  private static TrafficRouter unsupported(String type) {
    return new TrafficRouter() {
      private <T> Future<T> fail() {
        return Future.failedFuture(
            "traffic router " + type + " is not supported by this controller");
      }

      @Override
      public String type() {
        return type;
      }

      @Override
      public Future<Void> updateHash(
          TrafficRequest r, String c, String s, List<WeightDestination> a) {
        return fail();
      }

      @Override
      public Future<Void> setWeight(TrafficRequest r, int w, List<WeightDestination> a) {
        return fail();
      }

      @Override
      public Future<Void> setHeaderRoute(TrafficRequest r, SetHeaderRoute route) {
        return fail();
      }

      @Override
      public Future<Void> setMirrorRoute(TrafficRequest r, SetMirrorRoute route) {
        return fail();
      }

      @Override
      public Future<WeightVerification> verifyWeight(
          TrafficRequest r, int w, List<WeightDestination> a) {
        return fail();
      }

      @Override
      public Future<Void> removeManagedRoutes(TrafficRequest r) {
        return fail();
      }
    };
  }
}
