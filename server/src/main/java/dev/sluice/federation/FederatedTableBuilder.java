package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.Transactions;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * A create in a federated catalog, as iceberg-core's handlers build it. {@link #create}: the
 * table's location is decided here when the request names none (its namespace's plus its name, as
 * in an internal catalog), its locations pass Sluice's rules and are claimed, and only then is the
 * create sent to the remote. {@link #createOrReplaceTransaction}: the commit of a staged create,
 * whose changes reach the remote through {@link FederatedTableOperations#forCreate}. Replacing a
 * table (a transaction replacing it whole) is not offered on a federated catalog.
 */
final class FederatedTableBuilder implements Catalog.TableBuilder {
  private final String fullName;
  private final TableIdentifier table;
  private final Schema schema;
  private final RemoteTables remote;
  private final RemoteLocationRules rules;
  private final String placeholderLocation;
  private PartitionSpec spec;
  private SortOrder order;
  private String location;
  private final Map<String, String> properties = new LinkedHashMap<>();

  FederatedTableBuilder(
      String fullName,
      TableIdentifier table,
      Schema schema,
      RemoteTables remote,
      RemoteLocationRules rules,
      String placeholderLocation) {
    this.fullName = requireNonNull(fullName, "fullName");
    this.table = requireNonNull(table, "table");
    this.schema = requireNonNull(schema, "schema");
    this.remote = requireNonNull(remote, "remote");
    this.rules = requireNonNull(rules, "rules");
    this.placeholderLocation = requireNonNull(placeholderLocation, "placeholderLocation");
  }

  @Override
  public Catalog.TableBuilder withPartitionSpec(PartitionSpec newSpec) {
    this.spec = newSpec;
    return this;
  }

  @Override
  public Catalog.TableBuilder withSortOrder(SortOrder newOrder) {
    this.order = newOrder;
    return this;
  }

  @Override
  public Catalog.TableBuilder withLocation(String newLocation) {
    this.location = newLocation;
    return this;
  }

  @Override
  public Catalog.TableBuilder withProperties(Map<String, String> newProperties) {
    if (newProperties != null) {
      properties.putAll(newProperties);
    }
    return this;
  }

  @Override
  public Catalog.TableBuilder withProperty(String key, String value) {
    properties.put(key, value);
    return this;
  }

  @Override
  public Table create() {
    String at = location != null ? location : rules.defaultLocation(table);
    rules
        .check(table, at, properties)
        .ifPresent(
            breach -> {
              throw new RemoteErrors.Refused(
                  "Refused for federated table " + table + ": " + breach.describe());
            });
    CreateTableRequest.Builder request =
        CreateTableRequest.builder()
            .withName(table.name())
            .withLocation(at)
            .withSchema(schema)
            .setProperties(properties);
    if (spec != null) {
      request.withPartitionSpec(spec);
    }
    if (order != null) {
      request.withWriteOrder(order);
    }
    LoadTableResponse created;
    try {
      created = remote.create(table.namespace(), request.build());
    } catch (RuntimeException e) {
      rules.release(table);
      throw e;
    }
    // The remote may add locations of its own (write.data.path): claimed, or no credentials later.
    TableMetadata metadata = created.tableMetadata();
    rules.check(table, metadata.location(), metadata.properties());
    return new BaseTable(FederatedTableOperations.loaded(table, remote, rules, created), fullName);
  }

  @Override
  public Transaction createTransaction() {
    return createOrReplaceTransaction();
  }

  @Override
  public Transaction createOrReplaceTransaction() {
    // Only its operations are used (the commit of a staged create): the start is a placeholder.
    TableMetadata start =
        TableMetadata.newTableMetadata(
            schema, PartitionSpec.unpartitioned(), placeholderLocation, Map.of());
    return Transactions.createTableTransaction(
        fullName, FederatedTableOperations.forCreate(table, remote, rules), start);
  }

  @Override
  public Transaction replaceTransaction() {
    throw new UnsupportedOperationException(
        "Replacing a table whole is not offered on a federated catalog");
  }
}
