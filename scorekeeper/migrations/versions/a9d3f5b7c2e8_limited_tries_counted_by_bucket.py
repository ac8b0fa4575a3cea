"""limited tries counted by bucket: `join_attempt` (whose `address` held buckets) becomes `limited_try.bucket`

Revision ID: a9d3f5b7c2e8
Revises: f2c8a4e6b1d9
Create Date: 2026-11-26 10:30:00

What it holds lives a minute (the tries of the minute, counted per bucket): it is not carried over.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a9d3f5b7c2e8'
down_revision = 'f2c8a4e6b1d9'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('limited_try',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('bucket', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_limited_try_bucket'), 'limited_try', ['bucket'], unique=False)
    op.create_index(op.f('ix_limited_try_at'), 'limited_try', ['at'], unique=False)
    op.drop_index(op.f('ix_join_attempt_address'), table_name='join_attempt')
    op.drop_index(op.f('ix_join_attempt_at'), table_name='join_attempt')
    op.drop_table('join_attempt')


def downgrade():
    op.create_table('join_attempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_join_attempt_address'), 'join_attempt', ['address'], unique=False)
    op.create_index(op.f('ix_join_attempt_at'), 'join_attempt', ['at'], unique=False)
    op.drop_index(op.f('ix_limited_try_at'), table_name='limited_try')
    op.drop_index(op.f('ix_limited_try_bucket'), table_name='limited_try')
    op.drop_table('limited_try')
